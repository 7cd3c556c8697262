"""The reduction-axes lesson: which entries of a (batch, token, feature) tensor pool together."""
