"""`repopilot report` (issue 28): what the seen-before store and the run traces say, tallied and
rendered as text, Markdown (a job summary with Mermaid charts) or JSON."""
