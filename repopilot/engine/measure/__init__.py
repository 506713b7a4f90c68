"""Measuring the engine against labelled corpora (`repopilot eval`)."""
