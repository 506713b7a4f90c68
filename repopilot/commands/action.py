"""`repopilot action`: the GitHub Action entry point (reads the runner's environment)."""

from __future__ import annotations

import argparse
import os

from repopilot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Configuration comes from the runner: INPUT_<NAME> inputs, GITHUB_EVENT_NAME, "
        "GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY. Events: "
        "workflow_run (failed: triage and comment; success: mark the comment resolved), "
        "push / pull_request (a job of the CI workflow itself: triage the current run), "
        "issue_comment (/repopilot apply|reject <id>). See README.md, 'The GitHub Action'."
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from repopilot.action.entry import run as run_action

    return run_action(settings)


def config_error(message: str) -> int:
    """A variable or input the settings refuse: the Action's `::error::` line, summary and trace."""
    from repopilot.action.entry import config_failure

    return config_failure(os.environ, message)
