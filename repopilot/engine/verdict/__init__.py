"""Reading the job around the matches: its structure (failed step, exit lines, annotations,
tolerated failures), the failing test's message, the evidence order, the unknown fallback."""
