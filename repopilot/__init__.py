"""RepoPilot: deterministic-first triage of failed CI runs."""

__version__ = "0.2.0"
