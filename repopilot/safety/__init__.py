"""Redaction of secrets, injection hygiene, invisible and deceptive characters."""
