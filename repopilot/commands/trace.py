"""`repopilot trace show FILE` (a readable timeline) and `repopilot trace replay FILE`.

Replay re-runs the agent loop on the recorded model outputs (through the scripted provider) and the
recorded tool outputs, and reports the first step where the new run differs: exit 0 for
'no divergence', 1 when it diverges, 2 for a file that is not a trace.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from repopilot.agent.steps import ModelReply, ToolOutput, read
from repopilot.errors import LogError, TraceError, UsageError
from repopilot.run_records import AgentStep, RunTrace
from repopilot.settings import Settings
from repopilot.trace import load, summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="trace_command", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="print the trace as a readable timeline")
    show.add_argument("file", metavar="FILE", help="a trace file written by a run")
    rep = sub.add_parser("replay", help="re-run the loop on the recorded model outputs")
    rep.add_argument("file", metavar="FILE", help="a trace file written by a run")
    rep.add_argument(
        "--repo",
        metavar="DIR",
        help="run the tools and the diff validation live on this checkout "
        "(default: answer them from the trace)",
    )
    rep.add_argument("--base", metavar="REF", help="with --repo: the PR base for git_diff")
    rep.add_argument("--log", metavar="PATH", help="with --repo: the job log get_log reads")


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        trace = load(args.file)
    except TraceError as exc:
        raise UsageError(str(exc)) from None
    if args.trace_command == "show":
        print(timeline(trace))
        print()
        print(summary(trace, args.file))
        return 0
    from repopilot.agent.replay import agent_ran, replay  # the loop is only needed here

    if not agent_ran(trace):
        print(f"nothing to replay: the model was not asked in run {trace.run_id}")
        return 0

    try:
        new, divergence = replay(trace, **_live(args, settings.exec_path))
    except FileNotFoundError as exc:  # a prompt version this install does not have
        raise UsageError(f"{args.file}: cannot replay: {exc}") from None
    if divergence is None:
        print(f"no divergence ({len(new.steps)} steps replayed)")
        return 0
    print(f"diverges at step {divergence.step_number}")
    print(f"  recorded: {describe(divergence.recorded)}")
    print(f"  replayed: {describe(divergence.replayed)}")
    return 1


def _live(args: argparse.Namespace, exec_path: str) -> dict[str, Any]:
    """Real tools and validator for `--repo` (git found on `exec_path`); nothing (recorded
    answers) without it."""
    if not args.repo:
        if args.base or args.log:
            raise UsageError("--base and --log need --repo")
        return {}
    from repopilot.agent.sandbox import SandboxError
    from repopilot.agent.tools import Toolbox
    from repopilot.logs.reader import iter_lines, open_logs
    from repopilot.proposal.policy import Policy
    from repopilot.proposal.validate import validator_for

    log = None
    if args.log:
        try:
            job = open_logs(args.log)[0]
        except LogError as exc:
            raise UsageError(str(exc)) from None
        log = lambda: iter_lines(job)  # noqa: E731
    try:
        tools = Toolbox(args.repo, base_ref=args.base, log=log, exec_path=exec_path)
    except SandboxError as exc:
        raise UsageError(str(exc)) from None
    policy = Policy(exec_path=exec_path)
    return {"tools": tools, "validate": validator_for(Path(args.repo), policy)}


def _clock(ts: str) -> datetime | None:
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(step: AgentStep | None) -> str:
    """One line for a step: what happened, without timing."""
    if step is None:
        return "(no step: the run ended before)"
    if step.type == "llm_call":
        if step.error:
            return f"llm_call {step.model}: ERROR {step.error}"
        reply = read(ModelReply, step.result) or ModelReply()
        calls = [f"{c.name}({_short(c.arguments, 60)})" for c in reply.tool_calls]
        what = ", ".join(calls) if calls else f"answer: {_short(reply.text, 80)}"
        return f"llm_call {step.model} -> {what}"
    if step.type == "tool_call":
        return f"tool_call {step.tool_name} {_short(step.arguments or {})}"
    if step.type == "tool_result":
        out = read(ToolOutput, step.result) or ToolOutput()
        err = f" ERROR {step.error}" if step.error else ""
        size = f"{len(out.text)} chars, {out.redactions} redacted"
        head = f"tool_result {step.tool_name}: {size}{err}"
        return f"{head} | {_short(out.text, 70)}" if out.text and not err else head
    if step.type == "error":
        return f"error {_short(step.error or '')}"
    return f"{step.type} {_short(step.result if step.result is not None else '')}"


def timeline(trace: RunTrace) -> str:
    """The steps, one line each, with the time since the start and the duration of each."""
    t0 = _clock(trace.started_at)
    lines = [f"run {trace.run_id}  outcome: {trace.outcome or 'unfinished'}", "goal:"]
    lines += ["  " + line for line in trace.goal.splitlines()[:8]]
    if len(trace.goal.splitlines()) > 8:
        lines.append("  ...")
    for step in trace.steps:
        at = _clock(step.timestamp)
        rel = f"+{(at - t0).total_seconds():7.2f}s" if at and t0 else " " * 9
        took = f" ({step.duration_ms:.0f} ms)" if step.duration_ms else ""
        lines.append(f"{step.step_number:>4} {rel}  {describe(step)}{took}")
    return "\n".join(lines)
