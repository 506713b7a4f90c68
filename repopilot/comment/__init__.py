"""The PR comment: rendering, its hidden marker, `/repopilot` commands, Markdown."""
