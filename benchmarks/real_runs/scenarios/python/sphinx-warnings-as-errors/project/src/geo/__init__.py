"""Geodesy helpers."""
