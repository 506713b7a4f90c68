"""The RepoPilot PR comment: `render` it from triage results, and read back what it holds.

Layout, top to bottom: the hidden marker (first line, see comment/marker.py), a header with what
failed and whether it looks like the PR's fault, the status of each proposed fix, one section per
failed job (category, title, evidence linked into the job log, context, hint, diagnosis, diff and
the exact `/repopilot apply|reject <id>` commands), and a collapsed "how this was decided".

The body always fits GitHub's 65,536 characters: context is trimmed first, then proposals are
withheld (largest first; a withheld proposal also leaves the marker, so it cannot be applied),
then jobs collapse to one line each, then the last jobs are summarized. The marker is never cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from repopilot.comment import markdown as md
from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff, sign
from repopilot.comment.sections import (
    CONTEXT_LINES,
    JobReport,
    JobView,
    build_view,
    compact_line,
    job_section,
    kind_of,
)
from repopilot.comment.status import status_block
from repopilot.records import TriageResult, Usage

_CONTEXT_LEVELS = (CONTEXT_LINES, 4, 0)


@dataclass(frozen=True)
class CommentContext:
    """Where the comment goes and what it covers. `pr_fault` None: computed from the verdicts.
    `previous`: the marker of the comment being replaced, so applied/rejected statuses survive
    a re-run. `signing_key`: HMAC key for the marker (never rendered)."""

    repo: str
    run_id: int
    head_sha: str
    server_url: str = "https://github.com"
    run_url: str = ""
    pr_number: int | None = None
    pr_fault: bool | None = None
    usage: Usage | None = None
    previous: Marker | None = None
    signing_key: str | None = field(default=None, repr=False)

    @property
    def run_link(self) -> str:
        base = self.server_url.rstrip("/")
        return self.run_url or f"{base}/{self.repo}/actions/runs/{self.run_id}"


def looks_like_pr_fault(results: Sequence[TriageResult]) -> bool | None:
    """True if any failure is a code failure, False if all are infrastructure or flaky,
    None when nothing tells (unknown failures only)."""
    return _fault({kind_of(r) for r in results if r.verdict.category != "no_failure"})


def _fault(kinds: set[str | None]) -> bool | None:
    if "code" in kinds:
        return True
    if kinds and kinds <= {"infra", "flaky"}:
        return False
    return None


def _dedupe(views: list[JobView]) -> list[JobView]:
    """One proposal per id: later jobs with the same diff point to the first; a different diff
    under a taken id is withheld."""
    seen: dict[str, str] = {}
    out = []
    for view in views:
        p = view.proposal
        if p is not None and p.withheld is None:
            if p.id in seen:
                clash = None if seen[p.id] == p.sha256 else "another proposal already has its id"
                view = replace(view, proposal=replace(p, withheld=clash, first=False))
            else:
                seen[p.id] = p.sha256
        out.append(view)
    return out


def _marker(views: list[JobView], ctx: CommentContext, dropped: set[str]) -> Marker:
    previous = {p.id: p for p in ctx.previous.proposals} if ctx.previous else {}
    proposals = []
    for view in views:
        p = view.proposal
        if p is None or p.withheld or not p.first or p.id in dropped:
            continue
        old = previous.get(p.id)
        status = old.status if old is not None and old.sha256 == p.sha256 else "proposed"
        proposals.append(
            MarkerProposal(
                id=p.id,
                sha256=p.sha256,
                head_sha=ctx.head_sha,
                status=status,
                diff_z=encode_diff(p.diff),
            )
        )
    marker = Marker(
        repo=ctx.repo,
        pr=ctx.pr_number,
        run_id=ctx.run_id,
        head_sha=ctx.head_sha,
        proposals=tuple(proposals),
    )
    return sign(marker, ctx.signing_key)


def _header(views: list[JobView], ctx: CommentContext) -> str:
    n = len(views)
    fault = ctx.pr_fault
    if fault is None:
        kinds = {v.kind for v in views if v.category != "no_failure"}
        fault = (
            True if "code" in kinds else False if kinds and kinds <= {"infra", "flaky"} else None
        )
    verdict = {
        True: "This looks caused by the changes in this pull request.",
        False: "This does not look caused by this pull request (infrastructure or flaky); "
        "a re-run may be enough.",
        None: "RepoPilot could not tell whether this pull request caused it.",
    }[fault]
    jobs = f"{n} failed job{'s' if n != 1 else ''}"
    run = md.link(f"run {ctx.run_id}", ctx.run_link)
    return f"### RepoPilot: {jobs} in {run} at `{ctx.head_sha[:12]}`\n\n{verdict}\n\n"


def _details(views: list[JobView], ctx: CommentContext) -> str:
    lines = []
    for view in views:
        name = md.code_span(view.name, 80)
        how = f"escalated to the LLM; {view.decided}" if view.escalated else view.decided
        lines.append(f"- {name}: {how}")
        lines.extend(f"  - proposal refused: {md.text(r, 200)}" for r in view.rejected)
    u = ctx.usage
    if u is not None and (u.llm_calls or u.tool_calls):
        tokens = u.prompt_tokens + u.completion_tokens
        lines.append(
            f"- LLM usage: {u.llm_calls} calls, {tokens:,} tokens (prompt {u.prompt_tokens:,}, "
            f"completion {u.completion_tokens:,}), {u.tool_calls} tool calls"
        )
    elif u is None and any(v.escalated for v in views):
        lines.append("- LLM usage: not recorded")
    else:
        lines.append("- LLM usage: none")
    redacted = sum(v.redactions for v in views)
    if redacted:
        lines.append(f"- Secrets redacted from the quoted text: {redacted}")
    body = "\n".join(lines)
    return f"<details>\n<summary>How this was decided</summary>\n\n{body}\n\n</details>\n"


def _compose(
    views: list[JobView], ctx: CommentContext, context: int, dropped: set[str], compact: bool
) -> tuple[str, list[str], str]:
    marker = _marker(views, ctx, dropped)
    statuses = {p.id: p.status for p in marker.proposals}
    status = status_block(marker)
    head = dump_marker(marker) + "\n" + _header(views, ctx) + (status + "\n" if status else "")
    sections = []
    for view in views:
        p = view.proposal
        if p is not None and p.id in dropped and not p.withheld:
            p = replace(p, diff="", withheld="it does not fit in a comment", first=True)
            view = replace(view, proposal=p)
        if compact:
            sections.append(compact_line(view))
        else:
            sections.append(job_section(view, context, statuses.get(p.id, "") if p else ""))
    return head, sections, _details(views, ctx)


def _fit(head: str, sections: list[str], tail: str, total_jobs: int) -> str | None:
    """The body with as many leading sections as fit, or None when not even the head fits."""
    budget = md.MAX_BODY - md.body_size(head) - md.body_size(tail) - 200
    if budget < 0:
        return None
    kept: list[str] = []
    for section in sections:
        size = md.body_size(section)
        if size > budget:
            break
        kept.append(section)
        budget -= size
    more = total_jobs - len(kept)
    note = f"\n… and {more} more failed jobs: see the run.\n\n" if more else ""
    return head + "".join(kept) + note + "\n" + tail


def render(results: Sequence[JobReport], ctx: CommentContext) -> str:
    """The whole comment body for the failed jobs of one run (see the module docstring)."""
    views = _dedupe([build_view(job) for job in results])
    dropped: set[str] = set()
    for context in _CONTEXT_LEVELS:
        head, sections, tail = _compose(views, ctx, context, dropped, compact=False)
        body = head + "".join(sections) + "\n" + tail
        if md.body_size(body) <= md.MAX_BODY:
            return body
    offered = [
        v.proposal for v in views if v.proposal and v.proposal.first and not v.proposal.withheld
    ]
    for p in sorted(offered, key=lambda p: len(p.diff), reverse=True):
        dropped.add(p.id)
        head, sections, tail = _compose(views, ctx, 0, dropped, compact=False)
        body = head + "".join(sections) + "\n" + tail
        if md.body_size(body) <= md.MAX_BODY:
            return body
    head, sections, tail = _compose(views, ctx, 0, dropped, compact=True)
    body = head + "".join(sections) + "\n" + tail
    if md.body_size(body) <= md.MAX_BODY:
        return body
    return _fit(head, sections, "", len(views)) or head
