"""The per-job part of the RepoPilot comment: a cleaned view of each job, then its Markdown.

Every string that came from a log, a workflow or a model goes through `clean_for_model` (invisible
characters and HTML comments stripped, secrets redacted) exactly once, in `build_view`; the
formatting functions below only see cleaned text and make it inert with `comment.markdown`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from repopilot.comment import markdown as md
from repopilot.comment.marker import PROPOSAL_ID, diff_sha256
from repopilot.records import INFRA_CATEGORIES, Evidence, Proposal, TriageResult
from repopilot.safety.deceptive import diff_deception
from repopilot.safety.redact import clean_for_model

MAX_DIFF_CHARS = 40_000  # a larger diff cannot be shown in full next to anything else
CONTEXT_CHARS = 400
CONTEXT_LINES = 12  # at most this many context lines around the evidence are ever shown


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
    category: str
    kind: str | None
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


def _clean(value: str, counter: list[int]) -> str:
    cleaned = clean_for_model(value)
    counter[0] += cleaned.count
    return cleaned.text


def _invisible(text: str) -> str | None:
    # one definition with `sanitize` (SECURITY.md §16): Cf, Co, fillers, U+2800, ESC, blank runs
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


def log_link(job: JobReport, line: int) -> str:
    """`<job html_url>#step:<n>:<line in step>` when the step is known, else the job page."""
    if not job.html_url.startswith(("https://", "http://")):
        return ""
    if job.step_number is None:
        return job.html_url
    lines = job.result.verdict.step_lines
    in_step = line - lines[0] + 1 if lines and lines[0] <= line else line
    return f"{job.html_url}#step:{job.step_number}:{max(1, in_step)}"


def kind_of(result: TriageResult) -> str | None:
    """`code`, `infra`, `flaky`, or None when nothing tells."""
    v = result.verdict
    if v.category in INFRA_CATEGORIES:
        return "infra"
    if v.category in ("unknown", "no_failure", "other"):
        return v.kind if v.kind == "flaky" else None
    return v.kind or "code"


def _decided(result: TriageResult) -> str:
    v = result.verdict
    if v.decided_by == "pattern" and v.pattern_id:
        return (
            f"decided by pattern {md.code_span(v.pattern_id, 120)}, confidence {v.confidence:.0%}"
        )
    if v.decided_by == "llm":
        return f"decided by the LLM, confidence {v.confidence:.0%}"
    return "no pattern or model decided it"


def build_view(job: JobReport) -> JobView:
    """The cleaned, display-ready view of one job (the only place that touches raw text)."""
    count = [0]
    r, v = job.result, job.result.verdict
    ev = tuple(Evidence(line=e.line, text=_clean(e.text, count)) for e in v.evidence[:3])
    centre = ev[0].line if ev else (v.context[0].line if v.context else 0)
    near = sorted(v.context, key=lambda e: (abs(e.line - centre), e.line))[:CONTEXT_LINES]
    ctx = tuple(
        Evidence(line=e.line, text=md.clip(_clean(e.text, count), CONTEXT_CHARS))
        for e in sorted(near, key=lambda e: e.line)
    )
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
    return JobView(
        name=_clean(job.name, count),
        category=v.category,
        kind=kind_of(r),
        title=_clean(v.title, count),
        hint=_clean(v.hint, count),
        decided=_decided(r),
        evidence=ev,
        context=ctx,
        link=log_link(job, ev[0].line)
        if ev
        else log_link(job.model_copy(update={"step_number": None}), 0),
        diagnosis=_clean(r.diagnosis or "", count),
        escalated=r.escalated,
        rejected=tuple(_clean(f"{x.reason}: {x.detail}", count) for x in r.rejected),
        proposal=proposal,
        redactions=count[0],
    )


def _context_block(view: JobView, lines: int) -> str:
    if not view.context or lines <= 0:
        return ""
    centre = view.evidence[0].line if view.evidence else view.context[0].line
    rows = sorted(view.context, key=lambda e: (abs(e.line - centre), e.line))[:lines]
    rows.sort(key=lambda e: e.line)
    width = len(str(rows[-1].line))
    text = "".join(
        f"{'>' if e.line == centre else ' '} {e.line:>{width}} | {e.text}\n" for e in rows
    )
    note = "" if len(rows) == len(view.context) else "(context trimmed to fit the comment)\n\n"
    return md.fence(text, "text") + "\n" + note


def _proposal_block(p: ProposalView, status: str) -> str:
    if p.withheld:
        return f"A fix was proposed (`{p.id}`) but is not offered here: {md.text(p.withheld)}.\n\n"
    if not p.first:
        return f"The fix for this job is the same as above: `{p.id}`.\n\n"
    out = f"**Proposed fix `{p.id}`** (confidence {p.confidence:.0%})\n\n"
    if p.diagnosis:
        out += md.prose(p.diagnosis, code=True) + "\n\n"
    out += md.fence(p.diff, "diff") + "\n"
    if status == "proposed":
        out += (
            f"To apply it as one commit on this PR, a maintainer comments `/repopilot apply {p.id}`"
            f"; to dismiss it, `/repopilot reject {p.id}`.\n\n"
        )
    else:
        out += f"Status: {status}.\n\n"
    return out


def job_section(view: JobView, context_lines: int, status: str) -> str:
    """The Markdown for one job; `status` is the marker status of its proposal, if any."""
    label = view.category.replace("_", " ")
    if view.kind == "infra":
        label += " (infrastructure: advice only, no code change)"
    out = f"#### {md.code_span(view.name, 120)}: {label}\n\n"
    if view.title:
        out += f"**{md.text(view.title, 200)}**  \n"
    out += f"{view.decided[0].upper()}{view.decided[1:]}.\n\n"
    if view.evidence:
        first = view.evidence[0]
        where = md.link(f"line {first.line}", view.link) if view.link else f"line {first.line}"
        out += f"Evidence, {where}: {md.code_span(first.text, CONTEXT_CHARS)}\n\n"
    elif view.link:
        out += f"See the {md.link('job log', view.link)}.\n\n"
    out += _context_block(view, context_lines)
    if view.hint:
        out += (
            "".join(f"> {line}\n" for line in md.prose(view.hint, 1500, code=True).split("\n"))
            + "\n"
        )
    if view.diagnosis:
        out += f"**Diagnosis:** {md.prose(view.diagnosis, code=True)}\n\n"
    if view.proposal is not None:
        out += _proposal_block(view.proposal, status)
    return out


def compact_line(view: JobView) -> str:
    """One list item per job, for comments that would not fit otherwise."""
    title = f": {md.text(view.title, 120)}" if view.title else ""
    link = f" ({md.link('log', view.link)})" if view.link else ""
    return f"- {md.code_span(view.name, 80)}: {view.category}{title}{link}\n"
