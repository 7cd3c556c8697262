"""Pure figure builders: (engine result) -> plotly Figure, plus alt text from the same data.

One module per page. Nothing here computes mathematics; it only draws what the engine
returned. Imported by pages only, never by `import lnviz`.
"""
