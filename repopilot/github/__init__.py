"""The GitHub edge: the only package that imports PyGithub (runs, jobs, logs, PRs, comments, apply)."""
