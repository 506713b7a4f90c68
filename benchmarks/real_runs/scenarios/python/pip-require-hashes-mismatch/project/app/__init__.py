"""Hostname helpers."""
