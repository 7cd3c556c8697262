"""The invariance lesson: which changes of the input layer normalization ignores, and which not."""
