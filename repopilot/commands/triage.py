"""`repopilot triage PATH... --repo DIR [--format text|json] [--escalate auto|fixable]` (Contract 4).

The whole pipeline on local logs and a checkout: patterns first; the LLM chosen by REPOPILOT_LLM
(Contract 2) only for what they cannot decide. With REPOPILOT_LLM=none (the default) it runs
offline: no token, no network.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from repopilot.agent.limits import Limits
from repopilot.commands.base_log import add_argument as add_base_log
from repopilot.commands.base_log import use_base_log
from repopilot.commands.textout import use_colour
from repopilot.commands.triage_text import render_text
from repopilot.engine.classify import Classifier
from repopilot.engine.library.layers import add_layer_options
from repopilot.engine.verdict.baseline import base_verdicts
from repopilot.errors import LogError, TraceError, UsageError
from repopilot.llm.base import LLM
from repopilot.llm.factory import make_llm
from repopilot.origin.decide import OriginHook, base_log_hook
from repopilot.origin.signature import signature_text
from repopilot.pipeline import Escalation, load_classifier, triage
from repopilot.proposal.policy import Policy
from repopilot.proposal.validate import validator_for
from repopilot.records import ESCALATE_MODES, Verdict
from repopilot.run_records import OriginVerdict, TriageResult
from repopilot.settings import Settings
from repopilot.trace import load as load_trace
from repopilot.trace import summary as trace_summary


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="job log, run-logs .zip, .gz, or -")
    p.add_argument("--repo", default=".", metavar="DIR", help="checkout the tools read (default .)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--escalate",
        choices=ESCALATE_MODES,
        default="auto",
        help="auto: only unknown/ambiguous failures go to the LLM; fixable: code failures too",
    )
    add_layer_options(p)
    p.add_argument(
        "--assume-failed",
        action="store_true",
        help="the logs come from jobs known to have failed: never report no_failure",
    )
    add_base_log(
        p,
        help="a log of the same job on the base branch: report each failure's origin "
        "(this_pr, base_branch, infra, undetermined); when it passed, lines it also prints are "
        "not taken as the cause",
    )


def _setup(args: argparse.Namespace, settings: Settings) -> tuple[Path, LLM | None, Classifier]:
    repo = Path(args.repo)
    if not repo.is_dir():
        raise UsageError(f"--repo {args.repo}: not a directory")
    try:
        llm = make_llm(settings.llm)
    except (ValueError, ImportError) as exc:
        raise UsageError(str(exc).splitlines()[0]) from None
    # a bad library is already a UsageError
    layers = args.patterns or ()
    engine = settings.engine
    classifier = load_classifier(engine.patterns, layers, not args.no_builtin, engine)
    return repo, llm, classifier


def _escalation(args: argparse.Namespace, settings: Settings, llm: LLM | None) -> Escalation:
    """How jobs go to the model: the configured limits, and git found on the settings' PATH."""
    policy = Policy(exec_path=settings.exec_path)
    return Escalation(
        llm,
        mode=args.escalate,
        limits=Limits.configured(settings.agent),
        validator=lambda checkout: validator_for(checkout, policy),
        exec_path=settings.exec_path,
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    repo, llm, classifier = _setup(args, settings)
    how = _escalation(args, settings, llm)
    origin = (
        _base_log_origin(args.base_log, classifier, args.base_log_passed) if args.base_log else None
    )
    # a green base log also demotes the lines it prints
    use_base_log(classifier, args.base_log, args.base_log_passed)
    results: list[TriageResult] = []
    for path in args.paths:
        try:
            results += triage(
                path,
                repo,
                how,
                classifier=classifier,
                trace_dir=settings.trace_dir,
                origin=origin,
                assume_failed=args.assume_failed,
            )
        except LogError as exc:
            raise UsageError(str(exc)) from None
    if args.format == "json":
        json.dump({"results": [r.contract() for r in results]}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        on = use_colour(sys.stdout, settings.no_color)
        shown = (render_text(r, on, args.escalate, llm is not None) for r in results)
        sys.stdout.write("\n".join(shown))
    _print_summaries(results)
    _print_trace_dir(results)
    return 0


def _print_trace_dir(results: list[TriageResult]) -> None:
    """Say where the traces went: `.runs/` appears in the current directory otherwise unasked."""
    dirs = sorted({str(Path(r.trace).resolve().parent) for r in results if r.trace})
    if dirs:
        n = sum(1 for r in results if r.trace)
        where = ", ".join(d + "/" for d in dirs)
        print(
            f"repopilot: wrote {n} trace{'s' if n != 1 else ''} to {where} "
            "(REPOPILOT_TRACE_DIR changes where; `repopilot trace show FILE` reads one)",
            file=sys.stderr,
        )


def _base_log_origin(path: str, classifier: Classifier, passed: bool = False) -> OriginHook:
    """Issue 14 offline: the origin of each failure, compared with `path` (the base branch);
    `passed` (`--base-log-passed`): that log's job passed, whatever it holds."""
    try:
        base = base_verdicts(classifier, path, passed)
        printed = base if passed else classifier.classify_path(path)
    except LogError as exc:
        raise UsageError(f"--base-log: {exc}") from None
    read, same = base_log_hook(base, signature_text), base_log_hook(printed, signature_text)

    def hook(verdict: Verdict) -> OriginVerdict:
        # a log read green by its end may be a failed job with an `if: always()` step after the
        # failure: one that fails the same way as the PR is the base branch's failure either way
        found = same(verdict)
        return found if found.origin == "base_branch" else read(verdict)

    return hook


def _print_summaries(results: list[TriageResult]) -> None:
    """The run summary of every escalated job, on stderr (stdout stays the contract output)."""
    for r in results:
        if not (r.escalated and r.trace):
            continue
        try:
            print(trace_summary(load_trace(r.trace), r.trace), file=sys.stderr)
        except TraceError as exc:
            print(f"repopilot: {exc}", file=sys.stderr)
