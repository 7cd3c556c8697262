"""Content: what the pages say, as plain data and pure functions (the glossary, the worked
examples, the number style of lnviz.content.text, the page registry). NumPy only."""
