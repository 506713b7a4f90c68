"""A fixed-size ring buffer."""
