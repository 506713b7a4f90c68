"""A polite HTTP fetch queue."""
