"""The gain-and-bias lesson: what the learned affine step does after the normalized core."""
