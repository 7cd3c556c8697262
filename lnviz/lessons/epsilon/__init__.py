"""The ε lesson: what the constant added to the variance changes, and what it protects."""
