"""Render CSV reports."""
