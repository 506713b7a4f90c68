"""Proposed fixes: read a unified diff strictly, the safety policy, apply to files."""
