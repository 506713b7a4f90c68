"""The RepoPilot PR comment: `render` it from triage results, and read back what it holds.

Layout, top to bottom: the hidden marker (first line, see comment/marker.py), a header with what
failed and whether it looks like the PR's fault, one line when the LLM was skipped and why, the
status of each proposed fix, for several jobs a summary table (job, category, key line linked
into the log), one section per distinct failure (jobs that failed the same way are one section,
"same in N jobs"; see comment/blocks.py), and a collapsed "how this was decided".
The header and the table sit between `repopilot-digest` delimiters: when a later run passes,
comment/resolved.py keeps just that digest, collapsed, under "resolved".

The body always fits GitHub's 65,536 characters: context is trimmed first, then proposals are
withheld (largest first; a withheld proposal also leaves the marker, so it cannot be applied),
then jobs collapse to one line each, then the last jobs are summarized. The marker is never cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from repopilot.comment import markdown as md
from repopilot.comment.blocks import LLMState, compact_line, job_section, summary_table
from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff, sign
from repopilot.comment.origin import origin_header, origin_line
from repopilot.comment.sections import CONTEXT_LINES, JobReport, JobView, build_view, kind_of
from repopilot.comment.status import status_block
from repopilot.run_records import TriageResult, Usage

_CONTEXT_LEVELS = (CONTEXT_LINES, 6, 0)
DIGEST_OPEN = "<!-- repopilot-digest -->"
DIGEST_CLOSE = "<!-- /repopilot-digest -->"


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
    llm_skipped: str | None = None  # why the LLM was wanted but not used (one line)
    llm_model: str | None = None

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
        origins={v.name: v.origin.origin for v in views if v.origin},
    )
    return sign(marker, ctx.signing_key)


def shared_origin(views: list[JobView]) -> str:
    """The origin paragraph when every job has the same one (said once, in the header), else ""."""
    lines = {origin_line(v.origin) for v in views}
    return lines.pop() if len(lines) == 1 else ""


def _header(views: list[JobView], ctx: CommentContext) -> str:
    n = len(views)
    fault = ctx.pr_fault
    if fault is None:
        fault = _fault({v.kind for v in views if v.category != "no_failure"})
    verdict = {
        # Without origins the category alone cannot blame the PR (issue 14): it only says what kind.
        True: "The failure is in the code (tests, build, lint or types).",
        False: "This does not look caused by this pull request (infrastructure or flaky).",
        None: "",
    }[fault]
    verdict = origin_header([v.origin for v in views]) or verdict  # issue 14: origins decide
    shared = shared_origin(views)
    jobs = f"{n} failed job{'s' if n != 1 else ''}"
    run = md.link(f"run {ctx.run_id}", ctx.run_link)
    verdict = shared or (f"{verdict}\n\n" if verdict else "")
    return f"### RepoPilot: {jobs} in {run} at `{ctx.head_sha[:12]}`\n\n{verdict}"


def _llm_note(ctx: CommentContext) -> str:
    if not ctx.llm_skipped:
        return ""
    why = md.text(ctx.llm_skipped, 300)
    return f"> **The LLM was skipped:** {why}. The verdicts below are the pattern library's.\n\n"


def groups(views: list[JobView]) -> list[list[JobView]]:
    """Jobs that failed the same way, in the order of their first job."""
    out: dict[tuple[str, ...], list[JobView]] = {}
    for view in views:
        out.setdefault(view.group_key, []).append(view)
    return list(out.values())


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _details(views: list[JobView], ctx: CommentContext) -> str:
    """What the sections do not say already: the LLM's usage, redactions (collapsed). Each
    section says who decided it, so the jobs are not listed again here."""
    lines = []
    u = ctx.usage
    if u is not None and (u.llm_calls or u.tool_calls):
        tokens = u.prompt_tokens + u.completion_tokens
        model = f" ({md.code_span(ctx.llm_model, 80)})" if ctx.llm_model else ""
        lines.append(
            f"- LLM usage{model}: {_plural(u.llm_calls, 'call')}, {_plural(tokens, 'token')} "
            f"(prompt {u.prompt_tokens:,}, completion {u.completion_tokens:,}), "
            f"{_plural(u.tool_calls, 'tool call')}"
        )
    elif u is None and any(v.escalated for v in views):
        lines.append("- LLM usage: not recorded")
    redacted = sum(v.redactions for v in views)
    if redacted:
        lines.append(f"- Secrets redacted from the quoted text: {redacted}")
    if not lines:
        return ""
    body = "\n".join(lines)
    return f"<details>\n<summary>How this was decided</summary>\n\n{body}\n\n</details>\n\n"


def _llm_state(ctx: CommentContext, views: list[JobView]) -> LLMState:
    if ctx.llm_skipped:
        return "skipped"
    return "on" if ctx.usage is not None or any(v.escalated for v in views) else "off"


def _compose(
    views: list[JobView], ctx: CommentContext, context: int, dropped: set[str], compact: bool
) -> tuple[str, list[str], str]:
    """The head (marker, digest, notes, statuses, details), one section per distinct failure,
    and what follows them (nothing: each section ends with its next step)."""
    marker = _marker(views, ctx, dropped)
    statuses = {p.id: p.status for p in marker.proposals}
    status = status_block(marker)
    failures = groups(views)
    digest = _header(views, ctx) + (summary_table(failures) if len(failures) > 1 else "")
    head = f"{dump_marker(marker)}\n{DIGEST_OPEN}\n\n{digest}{DIGEST_CLOSE}\n\n"
    head += _llm_note(ctx) + (status + "\n" if status else "") + _details(views, ctx)
    show_origin = not shared_origin(views)
    llm = _llm_state(ctx, views)
    sections = []
    for group in failures:
        view = group[0]
        p = view.proposal
        if p is not None and p.id in dropped and not p.withheld:
            p = replace(p, diff="", withheld="it does not fit in a comment", first=True)
            view = replace(view, proposal=p)
        if compact:
            sections.append(compact_line([view, *group[1:]]))
        else:
            state = statuses.get(p.id, "") if p else ""
            sections.append(
                job_section([view, *group[1:]], context, state, ctx.run_link, show_origin, llm)
            )
    return head, sections, ""


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
    note = f"\n… and {more} more failures: see the run.\n\n" if more else ""
    return head + "".join(kept) + note + tail


def render(results: Sequence[JobReport], ctx: CommentContext) -> str:
    """The whole comment body for the failed jobs of one run (see the module docstring)."""
    views = _dedupe([build_view(job) for job in results])
    dropped: set[str] = set()
    for context in _CONTEXT_LEVELS:
        head, sections, tail = _compose(views, ctx, context, dropped, compact=False)
        body = head + "".join(sections) + tail
        if md.body_size(body) <= md.MAX_BODY:
            return body
    offered = [
        v.proposal for v in views if v.proposal and v.proposal.first and not v.proposal.withheld
    ]
    for p in sorted(offered, key=lambda p: len(p.diff), reverse=True):
        dropped.add(p.id)
        head, sections, tail = _compose(views, ctx, 0, dropped, compact=False)
        body = head + "".join(sections) + tail
        if md.body_size(body) <= md.MAX_BODY:
            return body
    head, sections, tail = _compose(views, ctx, 0, dropped, compact=True)
    body = head + "".join(sections) + tail
    if md.body_size(body) <= md.MAX_BODY:
        return body
    return _fit(head, sections, "", len(groups(views))) or head
