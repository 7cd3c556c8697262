"""Figures: pure Plotly builders, (result) -> go.Figure, each paired with its alt text."""
