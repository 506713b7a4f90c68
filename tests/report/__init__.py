"""Tests of repopilot/report/ (issue 28 item 4)."""
