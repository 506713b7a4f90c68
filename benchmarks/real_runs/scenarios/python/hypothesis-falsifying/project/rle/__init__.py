"""Run-length encoding for short byte-ish strings."""
