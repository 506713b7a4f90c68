"""Subcommands of the `repopilot` CLI (see repopilot/cli.py)."""
