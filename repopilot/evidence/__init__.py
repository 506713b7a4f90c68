"""The token-budgeted evidence window, for the model and the comment's context block; the lines
that explain a failure; and runner knowledge as data (runners.toml: what CI runners and test
runners print, read by the engine's verdict as well), with the one predicate for the runner's
exit line."""
