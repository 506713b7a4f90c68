"""Tiny image helpers; the fast path reads pixel buffers through ctypes."""
