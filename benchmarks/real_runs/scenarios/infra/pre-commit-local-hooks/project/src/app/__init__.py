"""Web handlers."""
