"""`repopilot action`: the GitHub Action entry point (reads the runner's environment)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Configuration comes from the runner: INPUT_<NAME> inputs, GITHUB_EVENT_NAME, "
        "GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY (DESIGN.md Contract 3)."
    )


def run(args: argparse.Namespace) -> int:
    from repopilot.action import main

    return main()
