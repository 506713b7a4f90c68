"""Stock keeping."""
