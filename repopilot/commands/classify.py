"""`repopilot classify PATH... [--format text|json] [--patterns DIR] [--assume-failed]`
(docs/CONTRACTS.md Contract 1)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from repopilot.commands.base_log import add_argument as add_base_log
from repopilot.commands.base_log import use_base_log
from repopilot.commands.textout import use_colour, verdict_lines
from repopilot.engine import gh_ahead
from repopilot.engine.classify import Classifier
from repopilot.engine.fanout import classify_jobs, processes
from repopilot.engine.library.layers import add_layer_options, library_from
from repopilot.errors import LogError, PatternError, UsageError
from repopilot.records import Verdict
from repopilot.settings import EngineSettings, Settings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="job log, run-logs .zip, .gz, or -")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_layer_options(p)
    add_base_log(p)
    p.add_argument(
        "--assume-failed",
        action="store_true",
        help="the logs come from jobs known to have failed: never report no_failure",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="processes for several logs (default: the usable cores, at most 4; 1: one by one)",
    )


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)


def load_classifier(
    patterns_dir: str | None,
    layers: Sequence[str] = (),
    builtin: bool = True,
    engine: EngineSettings | None = None,
) -> Classifier:
    """The library at `patterns_dir` (default: the built-in one) unless not `builtin`, with the
    `--patterns` layers on top (engine/library/layers.py); `engine`: the settings' scan engine
    and cache directory (None: the defaults)."""
    scan, cache_dir = (engine.scan_engine, engine.cache_dir) if engine else (None, None)
    try:
        library = library_from(patterns_dir, layers, builtin, cache_dir)
        return Classifier(library, engine=scan, cache_dir=cache_dir)
    except PatternError as exc:
        raise UsageError(str(exc)) from None


def classify_all(
    classifier: Classifier,
    paths: list[str],
    assume_failed: bool = False,
    jobs: int | None = None,
    ahead: gh_ahead.Ahead | None = None,
) -> list[Verdict]:
    """Every log's verdicts, in order; several logs on several cores (engine/fanout.py), with
    the same results as one by one. Standard input is read in this process. `ahead`: large gh
    files already being split (`gh_ahead.start`)."""
    jobs = processes(paths, jobs)
    if jobs > 1:
        classifier.scanner.prepare()  # built once, before the workers fork: they share it
    try:
        return classify_jobs(lambda j: classifier.classify(j, assume_failed), paths, jobs, ahead)
    except LogError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace, settings: Settings) -> int:
    layers = args.patterns or ()
    engine = settings.engine
    # large gh files are split on the other cores while the library loads (engine/gh_ahead.py)
    ahead = gh_ahead.start(args.paths, processes(args.paths, args.jobs))
    classifier = load_classifier(engine.patterns, layers, not args.no_builtin, engine)
    use_base_log(classifier, args.base_log, args.base_log_passed)
    verdicts = classify_all(classifier, args.paths, args.assume_failed, args.jobs, ahead)
    for v in verdicts:
        for pid in v.timeouts:
            print(
                f"repopilot: {v.source}: pattern {pid} hit the regex timeout; skipped",
                file=sys.stderr,
            )
    if args.format == "json":
        json.dump({"results": [v.contract() for v in verdicts]}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        on = use_colour(sys.stdout, settings.no_color)
        sys.stdout.write("\n".join(render_text(v, on) for v in verdicts))
    return 0


def render_text(v: Verdict, colour: bool = False) -> str:
    lines = verdict_lines(v, colour, v.source)
    if v.hint:
        lines.append(f"  hint:       {v.hint}")
    return "\n".join(lines) + "\n"
