"""`--base-log PATH` for classify and context (triage has it already, for the origin too):
a log of the same job from another run. When it passed, lines it also prints are not taken as
the cause (engine/verdict/baseline.py); when it failed, nothing is demoted."""

from __future__ import annotations

import argparse

from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.baseline import base_from_path
from repopilot.errors import LogError, UsageError

HELP = (
    "a log of the same job from another run (the base branch's, or the last green one): when it "
    "passed, lines it also prints are not taken as the cause"
)


def add_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--base-log", metavar="PATH", help=HELP)


def use_base_log(classifier: Classifier, path: str | None) -> None:
    """Set `classifier`'s baseline from the log at `path` (None: no base log)."""
    if not path:
        return
    try:
        classifier.baseline = base_from_path(classifier, path)
    except LogError as exc:
        raise UsageError(f"--base-log: {exc}") from None
