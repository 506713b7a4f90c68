"""triage(): classify every job of a log, escalate only what the patterns cannot decide.

Data flows one way: log -> jobs -> Verdict (patterns) -> [agent loop, only when allowed] ->
TriageResult. Every job gets a Contract 5 trace with its classify step, escalated or not.
No SDK is imported here: the LLM arrives as an object satisfying `repopilot.llm.base.LLM`.

When the LLM is asked (`should_escalate`): `unknown` verdicts and verdicts whose pattern is marked
ambiguous (escalate="auto", the default); with escalate="fixable" also verdicts of kind `code`.
Infrastructure verdicts (runner, network, cancelled, oom/disk, permission) never are.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.outcome import AgentOutcome, Validator
from repopilot.agent.prompt import render_goal
from repopilot.agent.tools import Toolbox
from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.evidence.explain import explaining_lines
from repopilot.evidence.window import DEFAULT_BUDGET, ContextWindow, build_window
from repopilot.llm.base import LLM
from repopilot.logs.reader import JobLog, LogLine, iter_lines, open_logs
from repopilot.origin.decide import ELSEWHERE, OriginHook
from repopilot.proposal.validate import validator_for
from repopilot.records import CATEGORIES, ESCALATE_MODES, INFRA_CATEGORIES, EscalateMode, Verdict
from repopilot.run_records import OriginVerdict, TriageResult
from repopilot.safety.redact import clean_for_model
from repopilot.settings import EngineSettings
from repopilot.trace import TraceWriter

# Lines read around the failing step for the evidence window: enough for the scoring to see the
# step whole and what led into it, without holding a multi-gigabyte log in memory (at most
# MAX_WINDOW_SOURCE lines of at most MAX_SOURCE_CHARS each; the window shows 400 of them).
LEAD_IN, TRAIL, MAX_WINDOW_SOURCE, MAX_SOURCE_CHARS = 500, 300, 50_000, 1000


@dataclass(frozen=True, slots=True)
class ClassifiedJob:
    """One job log and the pattern library's verdict on it."""

    job: JobLog
    verdict: Verdict


def load_classifier(
    patterns_dir: str | Path | None = None,
    layers: Sequence[str] = (),
    builtin: bool = True,
    engine: EngineSettings | None = None,
) -> Classifier:
    """The pattern library at `patterns_dir` (default: the bundled one), compiled once; with
    `--patterns` layers on top and without it when not `builtin` (engine/library/layers.py).
    `engine`: the settings' scan engine and cache directory (None: the defaults)."""
    scan, cache_dir = (engine.scan_engine, engine.cache_dir) if engine else (None, None)
    if layers or not builtin:
        from repopilot.engine.library.layers import library_from

        library = library_from(patterns_dir, layers, builtin, cache_dir)
        return Classifier(library, engine=scan, cache_dir=cache_dir)
    return Classifier(load_library(patterns_dir, cache_dir), engine=scan, cache_dir=cache_dir)


def classified_jobs(
    path: str, classifier: Classifier, assume_failed: bool = False
) -> list[ClassifiedJob]:
    """Every job in `path` (file, run zip, `-`) with its verdict. Raises LogError on bad input.
    `assume_failed`: the jobs are known to have failed, so no verdict is `no_failure`."""
    return [ClassifiedJob(job, classifier.classify(job, assume_failed)) for job in open_logs(path)]


def _source_span(verdict: Verdict) -> tuple[int, int | None]:
    """The line range the window is chosen from: the failing step with some lead-in."""
    marks = [e.line for e in verdict.evidence + verdict.context]
    if verdict.step_lines:
        marks += list(verdict.step_lines)
    if not marks:
        return 1, None
    lo, hi = max(1, min(marks) - LEAD_IN), max(marks) + TRAIL
    return max(lo, hi - MAX_WINDOW_SOURCE), hi


def window_lines(cj: ClassifiedJob) -> list[tuple[int, str]]:
    """(number, display text) of the lines the evidence window may use."""
    lo, hi = _source_span(cj.verdict)
    # A deque keeps memory bounded even when the span is open-ended (no step, no evidence).
    tail: deque[tuple[int, str]] = deque(maxlen=MAX_WINDOW_SOURCE)
    tail.extend((ll.number, ll.text[:MAX_SOURCE_CHARS]) for ll in iter_lines(cj.job, lo, hi))
    return list(tail)


def evidence_window(
    cj: ClassifiedJob, budget: int = DEFAULT_BUDGET, lines: list[tuple[int, str]] | None = None
) -> ContextWindow:
    """The redacted window the agent's first message carries (`repopilot context`); `lines`:
    `window_lines(cj)` when the caller has read them already."""
    lines = window_lines(cj) if lines is None else lines
    return build_window(lines, cj.verdict, budget=budget, source=cj.job.source)


def explained(verdict: Verdict, lines: list[tuple[int, str]]) -> Verdict:
    """`verdict` with its context replaced by the lines of `lines` (`window_lines`) that explain
    it (evidence/explain.py): the context every entry point shows, decided here once. A verdict
    with no failure, or with nothing in `lines` to explain it, keeps the engine's context."""
    if not verdict.failed:
        return verdict
    context = explaining_lines(lines, verdict)
    return verdict.model_copy(update={"context": context}) if context else verdict


def should_escalate(verdict: Verdict, escalate: EscalateMode = "auto") -> bool:
    """Whether this verdict may go to the LLM (module docstring); never for infra failures."""
    if verdict.category in ("no_failure",) or verdict.category in INFRA_CATEGORIES:
        return False
    if verdict.kind == "infra":
        return False
    if verdict.category == "unknown" or verdict.ambiguous:
        return True
    return escalate == "fixable" and verdict.kind == "code"


def _new_trace(
    cj: ClassifiedJob, goal: str, trace_dir: str | Path | None, origin: OriginVerdict | None = None
) -> TraceWriter:
    trace = TraceWriter(goal, directory=None if trace_dir is None else str(trace_dir))
    trace.add("classify", arguments={"source": cj.job.source}, result=cj.verdict.contract())
    if origin is not None:  # issue 14: decided before any LLM, signature included
        trace.add("decision", result={"event": "origin", **origin.model_dump()})
    return trace


def _decided(cj: ClassifiedJob, trace: TraceWriter, reason: str) -> TriageResult:
    """A result without escalation: the verdict stands; the trace says why no LLM was asked."""
    trace.add("decision", result={"escalated": False, "reason": reason})
    trace.finish(reason)
    return TriageResult(verdict=cj.verdict, trace=_written(trace))


def _written(trace: TraceWriter) -> str | None:
    return None if trace.save_error else str(trace.path)


def _merge(verdict: Verdict, outcome: AgentOutcome) -> TriageResult:
    """The model's answer over the deterministic verdict (docs/CONTRACTS.md "After escalation")."""
    if outcome.diagnosis:
        update: dict[str, object] = {"decided_by": "llm"}
        if outcome.category in CATEGORIES:
            update["category"] = outcome.category
        if outcome.confidence is not None:
            update["confidence"] = outcome.confidence
        verdict = verdict.model_copy(update=update)
    # The model saw only redacted text, but what it writes is printed and posted: redact it too.
    diagnosis = None if outcome.diagnosis is None else clean_for_model(outcome.diagnosis).text
    return TriageResult(
        verdict=verdict,
        diagnosis=diagnosis,
        escalated=True,
        proposal=outcome.proposal,
        rejected=outcome.rejected,
        trace=outcome.trace,
    )


@dataclass(frozen=True, slots=True)
class Escalation:
    """When and how a job goes to the model; the same for every job of a triage call.

    `llm` None: nothing is escalated (the trace says `no-llm-configured`). `validator(repo)`
    returns the diff check the agent's proposals must pass (docs/THREAT_MODEL.md §5 and `git apply
    --check` against the checkout); with None a proposed diff is rejected, never offered.
    `base_ref` is the PR base for the `git_diff` tool (None: unknown). `exec_path` is the PATH
    the tools' git is found on (the entry point's `Settings.exec_path`). `checkout` False: the
    tools have no checkout to read (the Action on a fork PR, action/entry.py); the goal says so.
    """

    llm: LLM | None = None
    mode: EscalateMode = "auto"
    limits: Limits = field(default_factory=Limits)
    budget: int = DEFAULT_BUDGET
    base_ref: str | None = None
    validator: Callable[[Path], Validator] | None = validator_for
    exec_path: str = os.defpath
    checkout: bool = True

    def __post_init__(self) -> None:
        if self.mode not in ESCALATE_MODES:
            modes = ", ".join(ESCALATE_MODES)
            raise ValueError(f"escalate={self.mode!r}: expected one of {modes}")


@dataclass(frozen=True, slots=True)
class _Run:
    """One triage call: where the tools read, how to escalate, where traces go."""

    repo: Path
    how: Escalation
    trace_dir: str | Path | None
    origin: OriginHook | None = None

    def job(self, cj: ClassifiedJob) -> TriageResult:
        found = self.origin(cj.verdict) if self.origin and cj.verdict.failed else None
        # Read once around the failing step: the model's window and the shown context.
        lines = window_lines(cj) if cj.verdict.failed else []
        result = self._job(cj, found, lines)
        # The engine's verdict decides the context (the model's category does not change it).
        verdict = result.verdict.model_copy(
            update={"context": explained(cj.verdict, lines).context}
        )
        update: dict[str, object] = {"verdict": verdict}
        if found is not None:
            update["origin"] = found
        return result.model_copy(update=update)

    def _job(
        self, cj: ClassifiedJob, found: OriginVerdict | None, lines: list[tuple[int, str]]
    ) -> TriageResult:
        how = self.how
        elsewhere = found is not None and found.origin in ELSEWHERE and how.mode == "auto"
        if elsewhere or not should_escalate(cj.verdict, how.mode):
            why = "no-failure" if not cj.verdict.failed else "decided-by-pattern"
            if cj.verdict.category in INFRA_CATEGORIES or cj.verdict.kind == "infra":
                why = "infra-not-escalated"
            elif elsewhere and found is not None:
                why = f"origin-{found.origin}".replace("_", "-")
            trace = _new_trace(cj, f"triage {cj.job.source}", self.trace_dir, found)
            return _decided(cj, trace, why)
        if how.llm is None:
            trace = _new_trace(cj, f"triage {cj.job.source}", self.trace_dir, found)
            return _decided(cj, trace, "no-llm-configured")
        window = evidence_window(cj, how.budget, lines)
        goal = render_goal(
            cj.verdict, window.text, base_known=how.base_ref is not None, checkout=how.checkout
        )
        trace = _new_trace(cj, goal, self.trace_dir, found)
        trace.add("decision", result=_window_record(window))
        agent = Agent(
            how.llm,
            Toolbox(
                str(self.repo),
                base_ref=how.base_ref,
                log=_log_source(cj.job),
                limits=how.limits,
                exec_path=how.exec_path,
            ),
            validate=how.validator(self.repo) if how.validator else None,
            limits=how.limits,
            trace=trace,
        )
        return _merge(cj.verdict, agent.run(goal))


def triage(
    path: str,
    repo: str | Path,
    escalation: Escalation | None = None,
    *,
    classifier: Classifier | None = None,
    trace_dir: str | Path | None = None,
    origin: OriginHook | None = None,
    assume_failed: bool = False,
) -> list[TriageResult]:
    """Classify each job in `path`; escalate the allowed ones as `escalation` says (default: none).
    `assume_failed`: the jobs are known to have failed (the Action; `--assume-failed`).

    `classifier` defaults to the bundled pattern library. Traces go to `trace_dir` (default
    `.runs`; the entry points pass REPOPILOT_TRACE_DIR's). Raises LogError for unusable input; LLM faults never
    raise (the deterministic verdict stands). `origin`, when given, decides each failed job's
    origin from its deterministic verdict first; `base_branch` and `flaky` jobs then go to the
    LLM only with escalate=fixable (issue 14).
    """
    run = _Run(Path(repo), escalation or Escalation(), trace_dir, origin)
    jobs = classified_jobs(path, classifier or load_classifier(), assume_failed)
    return [run.job(cj) for cj in jobs]


def _window_record(window: ContextWindow) -> dict[str, object]:
    return {
        "event": "evidence-window",
        "line_ranges": [list(r) for r in window.line_ranges],
        "tokens": window.tokens,
        "redactions": window.redactions,
    }


def _log_source(job: JobLog) -> Callable[[], Iterator[LogLine]]:
    """`get_log` re-reads the job's log on demand (streamed; the loop redacts what it returns)."""
    return lambda: iter_lines(job)
