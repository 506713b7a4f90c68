"""Task queue client."""
