"""Webhook notifications."""

__version__ = "0.9.0"
