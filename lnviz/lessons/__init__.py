"""Lessons: page-specific models on the engine (NumPy only); the engine never imports them."""
