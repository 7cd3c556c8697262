"""Lessons: page-specific scenario models built on the engine (NumPy only).

Each module models what one page shows (a stream of mini-batches, a market series, a stack
of residual blocks) as typed pure functions returning frozen dataclasses; the engine in
`lnviz` never imports from here.
"""
