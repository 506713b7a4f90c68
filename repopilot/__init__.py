"""RepoPilot: deterministic-first triage of failed CI runs."""

__version__ = "0.1.0"
