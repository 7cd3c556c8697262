"""Figures: pure Plotly builders, (result) -> go.Figure, each paired with its alt text.

One module per page. A figure draws what the engine, a lesson or a content function
returned; it computes no mathematics of its own. Each builder and its alt-text builder
travel as a `Chart` pair (lnviz.figures._spec) that pages draw with one call,
`ui.chart(PAIR, *args, key=...)`. Imports NumPy and Plotly (and the layers below it),
never Streamlit.
"""
