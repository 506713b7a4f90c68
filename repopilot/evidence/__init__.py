"""The token-budgeted evidence window, for the model and the comment's context block."""
