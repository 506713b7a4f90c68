"""The per-job part of the RepoPilot comment: a cleaned, display-ready view of each job.

Every string that came from a log, a workflow or a model goes through `clean_for_model` (invisible
characters and HTML comments stripped, secrets redacted) exactly once, in `build_view`; the
Markdown for a view (comment/blocks.py) only sees cleaned text and makes it inert with
`comment.markdown`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from repopilot.comment import markdown as md
from repopilot.comment.marker import PROPOSAL_ID, diff_sha256
from repopilot.comment.origin import is_guess, told
from repopilot.comment.seen import seen_block
from repopilot.records import BASELINE_NOTE, INFRA_CATEGORIES, Category, DecidedBy, Evidence, Kind
from repopilot.run_records import BaselineRun, OriginVerdict, Proposal, TriageResult
from repopilot.safety.deceptive import diff_deception
from repopilot.safety.redact import clean_for_model, clean_lines

MAX_DIFF_CHARS = 40_000  # a larger diff cannot be shown in full next to anything else
CONTEXT_CHARS = 400
CONTEXT_LINES = 14  # at most this many context lines around the evidence are ever shown
UNKNOWN_HINT = "No pattern recognizes"  # the engine's generic hint for unknown verdicts
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")


class JobReport(BaseModel):
    """One failed job to report: its name, its log page (`html_url` of the job), the step number
    of the failing step in the jobs API (for `#step:N:L` links; None links the job), and the
    triage result. JSON-serializable, so an analyze job can hand it to a post job."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    html_url: str = ""
    result: TriageResult
    step_number: int | None = None


@dataclass(frozen=True)
class ProposalView:
    id: str
    diff: str
    sha256: str
    confidence: float
    diagnosis: str  # cleaned
    withheld: str | None = None  # why it is not offered, or None
    first: bool = True  # False: the same proposal was already shown for an earlier job


@dataclass(frozen=True)
class JobView:
    name: str
    category: Category
    kind: Kind | None
    title: str
    hint: str
    decided: str
    evidence: tuple[Evidence, ...]
    context: tuple[Evidence, ...]
    link: str
    diagnosis: str
    escalated: bool
    rejected: tuple[str, ...]
    proposal: ProposalView | None
    redactions: int
    step: str = ""
    decided_by: DecidedBy = "none"
    links: tuple[str, ...] = ()  # a log link per evidence line ("" when none)
    origin: OriginVerdict | None = None  # issue 14: whether the PR caused it
    step_number: int | None = None  # the failing step's number in the jobs API
    step_start: int | None = None  # its first line in the log file, when lines count from there
    baseline_run: BaselineRun | None = None  # issue 20: the green run its log was compared with
    guess: bool = False  # issue 20: the category is a guess (comment/origin.py `is_guess`)
    seen: str = ""  # issue 28: the "Seen before" paragraph (comment/seen.py), inert Markdown

    def shown_line(self, line: int) -> int:
        """`line` (of the downloaded log) as the log viewer numbers it: within the step."""
        return line - self.step_start + 1 if self.step_start is not None else line

    def where(self, line: int) -> str:
        """`step 4, line 16` (what `#step:4:16` opens), or `line 24` without a step."""
        if self.step_number is not None and self.step_start is not None:
            return f"step {self.step_number}, line {self.shown_line(line)}"
        return f"line {line}"

    @property
    def group_key(self) -> tuple[str, ...]:
        """Jobs with equal keys failed the same way (a matrix): shown once, "same in N jobs".
        Numbers in the key line are ignored (durations, ports); the title is compared as is."""
        first = self.evidence[0].text if self.evidence else ""
        sha = self.proposal.sha256 if self.proposal else ""
        origin = self.origin.origin if self.origin else ""
        return (self.category, self.title, _NUMBERS.sub("#", first), self.diagnosis, sha, origin)


def _clean(value: str, counter: list[int]) -> str:
    cleaned = clean_for_model(value)
    counter[0] += cleaned.count
    return cleaned.text


def _invisible(text: str) -> str | None:
    # one definition with `sanitize` (docs/THREAT_MODEL.md §16): Cf, Co, fillers, U+2800, ESC, blank runs
    return diff_deception(text)


def withheld_reason(proposal: Proposal) -> str | None:
    """Why a proposal must not be offered from a comment, or None."""
    if not PROPOSAL_ID.fullmatch(proposal.id):
        return "its id is malformed"
    if diff_sha256(proposal.diff) != proposal.sha256:
        return "its recorded hash does not match its diff"
    if len(proposal.diff) > MAX_DIFF_CHARS:
        return f"the diff is too large to show in a comment ({len(proposal.diff)} characters)"
    if (deceit := _invisible(proposal.diff)) is not None:
        return f"the diff contains invisible or deceptive text ({deceit})"
    if clean_for_model(proposal.diff).count:
        return "the diff contains text that looks like a secret"
    return None


def step_start(job: JobReport, lines: Sequence[int]) -> int | None:
    """The log line the viewer's step numbering starts from, when every line shown lies in
    the failing step (else None: the file's own numbers are shown, as the job page has them)."""
    bounds = job.result.verdict.step_lines
    if job.step_number is None or not job.html_url.startswith(("https://", "http://")):
        return None
    if not bounds:
        return 1  # as `log_link` counts then: the link's line is the log's line
    return bounds[0] if all(line >= bounds[0] for line in lines) else None


def log_link(job: JobReport, line: int) -> str:
    """`<job html_url>#step:<n>:<line in step>` when the step is known, else the job page."""
    if not job.html_url.startswith(("https://", "http://")):
        return ""
    if job.step_number is None:
        return job.html_url
    lines = job.result.verdict.step_lines
    in_step = line - lines[0] + 1 if lines and lines[0] <= line else line
    return f"{job.html_url}#step:{job.step_number}:{max(1, in_step)}"


def kind_of(result: TriageResult) -> Kind | None:
    """`code`, `infra`, `flaky`, or None when nothing tells (a guessed category tells nothing)."""
    v = result.verdict
    if is_guess(v):
        return None
    if v.category in INFRA_CATEGORIES:
        return "infra"
    if v.category in ("unknown", "no_failure", "other"):
        return v.kind if v.kind == "flaky" else None
    return v.kind or "code"


def _decided(result: TriageResult) -> str:
    """Who decided the category, in words a maintainer reads once (no "decided by none")."""
    v = result.verdict
    if v.decided_by == "pattern" and v.pattern_id:
        pid = md.code_span(v.pattern_id, 120)
        return f"decided by pattern {pid} (confidence {v.confidence:.0%}), without an LLM"
    if v.decided_by == "llm":
        after = f" after pattern {md.code_span(v.pattern_id, 120)} matched" if v.pattern_id else ""
        return f"diagnosed by the LLM{after} (confidence {v.confidence:.0%})"
    if v.pattern_id:  # issue 27: a pattern matched, but its calibrated confidence is too low
        pid = md.code_span(v.pattern_id, 120)
        low = f"not decided: a best guess from pattern {pid} (confidence {v.confidence:.0%})"
        return low + (" that the LLM gave no answer on" if result.escalated else ", no LLM asked")
    if result.escalated:
        return "not decided: no pattern recognizes this failure and the LLM gave no answer"
    return "not decided: no pattern recognizes this failure and no LLM was asked"


def _title(v_title: str, decided_by: DecidedBy, diagnosis: str) -> str:
    """An LLM-diagnosed failure is not "Unrecognized" any more: its title is the diagnosis'
    first sentence."""
    if decided_by != "llm" or not diagnosis or not v_title.startswith("Unrecognized"):
        return v_title
    first = re.split(r"(?<=[.!?])\s", " ".join(diagnosis.split()), maxsplit=1)[0]
    return md.clip(first, 160)


def build_view(job: JobReport) -> JobView:
    """The cleaned, display-ready view of one job (the only place that touches raw text)."""
    count = [0]
    r, v = job.result, job.result.verdict
    ev = tuple(Evidence(line=e.line, text=_clean(e.text, count)) for e in v.evidence[:3])
    centre = ev[0].line if ev else (v.context[0].line if v.context else 0)
    near = sorted(v.context, key=lambda e: (abs(e.line - centre), e.line))[:CONTEXT_LINES]
    ordered = sorted(near, key=lambda e: e.line)
    # cleaned together: a token wrapped across two context lines is redacted whole
    texts, redactions = clean_lines([e.text for e in ordered])
    count[0] += redactions
    ctx = tuple(
        Evidence(line=e.line, text=md.clip(t, CONTEXT_CHARS))
        for e, t in zip(ordered, texts, strict=True)
    )
    diagnosis = _clean(r.diagnosis or "", count)
    proposal = None
    if r.proposal is not None:
        p = r.proposal
        reason = withheld_reason(p)
        proposal = ProposalView(
            id=p.id,
            diff=p.diff if reason is None else "",
            sha256=p.sha256,
            confidence=p.confidence,
            diagnosis=_clean(p.diagnosis, count),
            withheld=reason,
        )
    hint = _clean(v.hint, count)
    if hint.startswith(UNKNOWN_HINT):
        hint = ""  # the decided line says it already; after the LLM it would be wrong, too
    if r.baseline_run is not None:  # the green-run line says it, linked: say it once
        hint = hint.replace(BASELINE_NOTE, "").strip()
    title = _clean(v.title, count)
    no_step = job.model_copy(update={"step_number": None})
    return JobView(
        name=_clean(job.name, count),
        category=v.category,
        kind=kind_of(r),
        title=_title(title, v.decided_by, diagnosis),
        hint=hint,
        decided=_decided(r),
        evidence=ev,
        context=ctx,
        link=log_link(job, ev[0].line) if ev else log_link(no_step, 0),
        diagnosis=diagnosis,
        escalated=r.escalated,
        rejected=tuple(_clean(f"{x.reason}: {x.detail}", count) for x in r.rejected),
        proposal=proposal,
        redactions=count[0],
        step=_clean(v.step or "", count),
        decided_by=v.decided_by,
        links=tuple(log_link(job, e.line) for e in ev),
        origin=told(r.origin, is_guess(v)),  # a guess blames no one
        step_number=job.step_number,
        step_start=step_start(job, [e.line for e in (*ev, *ctx)]),
        baseline_run=r.baseline_run,
        guess=is_guess(v),
        seen=seen_block(r),  # cleans what it shows itself
    )
