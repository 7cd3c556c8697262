"""The worked examples: what the source documents state, and the app's own checks, live."""
