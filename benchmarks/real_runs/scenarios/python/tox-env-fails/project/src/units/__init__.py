"""Parse CSS-like length strings."""
