"""The GitHub Action: the runner's I/O (inputs, outputs, summary), the triage-and-post flows,
`/repopilot` commands and their approval, the resolve path. `github/` is the API edge it uses."""
