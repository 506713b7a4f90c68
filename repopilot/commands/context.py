"""`repopilot context PATH... [--budget TOKENS] [--format text|json] [--patterns DIR]` (Contract 4).

Prints, for each failed job, the redacted evidence window the agent's first message carries:
`{"results": [{"source", "category", "line_ranges", "tokens", "text"}]}`. Offline, no LLM.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from repopilot.commands.base_log import add_argument as add_base_log
from repopilot.commands.base_log import use_base_log
from repopilot.engine.library.layers import add_layer_options
from repopilot.errors import LogError, PatternError, UsageError
from repopilot.evidence.window import DEFAULT_BUDGET, ContextWindow
from repopilot.pipeline import classified_jobs, evidence_window, load_classifier
from repopilot.settings import EngineSettings, Settings

MIN_BUDGET = 100  # below this not even one error line and its location fit


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="job log, run-logs .zip, .gz, or -")
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="TOKENS",
        help=f"window size in estimated tokens, ceil(chars/4) (default {DEFAULT_BUDGET})",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_layer_options(p)
    add_base_log(p)
    p.add_argument(
        "--assume-failed",
        action="store_true",
        help="the logs come from jobs known to have failed: never report no_failure",
    )


def windows(
    paths: list[str],
    budget: int,
    patterns: str | None,
    assume_failed: bool = False,
    layers: Sequence[str] = (),
    builtin: bool = True,
    engine: EngineSettings | None = None,
    *,
    base_log: str | None = None,
    base_log_passed: bool = False,
) -> list[ContextWindow]:
    """The window of every failed job in `paths`; UsageError (one line) for unusable input."""
    if budget < MIN_BUDGET:
        raise UsageError(f"--budget {budget}: must be at least {MIN_BUDGET} tokens")
    try:
        classifier = load_classifier(patterns, layers, builtin, engine)
    except PatternError as exc:
        raise UsageError(str(exc)) from None
    use_base_log(classifier, base_log, base_log_passed)
    out: list[ContextWindow] = []
    for path in paths:
        try:
            jobs = classified_jobs(path, classifier, assume_failed)
            out.extend(evidence_window(cj, budget) for cj in jobs if cj.verdict.failed)
        except LogError as exc:
            raise UsageError(str(exc)) from None
    return out


def run(args: argparse.Namespace, settings: Settings) -> int:
    engine = settings.engine
    layers, builtin = args.patterns or (), not args.no_builtin
    found = windows(
        args.paths,
        args.budget,
        engine.patterns,
        args.assume_failed,
        layers,
        builtin,
        engine,
        base_log=args.base_log,
        base_log_passed=args.base_log_passed,
    )
    if args.format == "json":
        json.dump({"results": [w.contract() for w in found]}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not found:
        print("no failed job: nothing to show")
    for w in found:
        spans = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in w.line_ranges)
        print(f"== {w.source}: {w.category}, ~{w.tokens} tokens, lines {spans or 'none'}")
        print(w.text)
    return 0
