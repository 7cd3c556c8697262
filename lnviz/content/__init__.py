"""Content: what the pages say, as plain data and pure functions; NumPy only."""
