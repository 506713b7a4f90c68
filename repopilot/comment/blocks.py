"""The Markdown of one failed job, or of one group of jobs that failed the same way.

Read top to bottom in five seconds: the job and category; the title; who decided it; the key
line, linked to its place in the job log, inside a small block of the lines that explain it
(shown once, marked `>`); the hint; for infrastructure failures a re-run link; the diagnosis;
then the proposed fix with the apply/reject commands between `repopilot-cmd` delimiters, which
`comment.status.mark_status` replaces by the outcome after an apply or a reject.
Only cleaned text arrives here (comment/sections.py); everything untrusted is made inert.
"""

from __future__ import annotations

from collections.abc import Sequence

from repopilot.comment import markdown as md
from repopilot.comment.origin import origin_cell, origin_line
from repopilot.comment.sections import CONTEXT_CHARS, JobView, ProposalView
from repopilot.comment.status import cmd_close, cmd_open, outcome_text


def _rows(view: JobView, lines: int):
    centre = view.evidence[0].line if view.evidence else view.context[0].line
    rows = sorted(view.context, key=lambda e: (abs(e.line - centre), e.line))[:lines]
    return sorted(rows, key=lambda e: e.line), centre


def context_block(view: JobView, lines: int) -> str:
    """The explaining lines as `> N | text` (the key line) and `  N | text`; a gap is `⋮`."""
    if not view.context or lines <= 0:
        return ""
    rows, centre = _rows(view, lines)
    width = len(str(rows[-1].line))
    out, prev = [], None
    for e in rows:
        if prev is not None and e.line > prev + 1:
            out.append(f"  {'⋮':>{width}}\n")
        out.append(f"{'>' if e.line == centre else ' '} {e.line:>{width}} | {e.text}\n")
        prev = e.line
    note = "" if len(rows) == len(view.context) else "(context trimmed to fit the comment)\n\n"
    return md.fence("".join(out), "text") + "\n" + note


def _key_line(view: JobView, lines: int) -> str:
    first = view.evidence[0]
    where = md.link(f"line {first.line}", view.link) if view.link else f"line {first.line}"
    if view.step:
        where += f" (step {md.code_span(view.step, 80)})"
    same = md.clip(first.text, CONTEXT_CHARS)
    shown = lines > 0 and any(
        e.line == first.line and e.text == same for e in _rows(view, lines)[0]
    )
    if view.context and shown:
        return f"Key line: {where}, marked `>` below.\n\n"
    return f"Key line, {where}: {md.code_span(first.text, CONTEXT_CHARS)}\n\n"


def _proposal_block(p: ProposalView, status: str, diagnosis_shown: str) -> str:
    if p.withheld:
        return f"A fix was proposed (`{p.id}`) but is not offered here: {md.text(p.withheld)}.\n\n"
    if not p.first:
        return f"The fix for this job is the same as above: `{p.id}`.\n\n"
    out = f"**Proposed fix `{p.id}`** (confidence {p.confidence:.0%})\n\n"
    if p.diagnosis and " ".join(p.diagnosis.split()) != " ".join(diagnosis_shown.split()):
        out += md.prose(p.diagnosis, code=True) + "\n\n"
    out += md.fence(p.diff, "diff") + "\n"
    return out + f"{cmd_open(p.id)}\n\n{outcome_text(p.id, status)}\n\n{cmd_close()}\n\n"


def _same(others: Sequence[JobView]) -> str:
    names = [
        md.link(md.code_span(v.name, 60), v.link) if v.link else md.code_span(v.name, 60)
        for v in others
    ]
    return f"Same failure in {len(others)} jobs: {', '.join(names)}.\n\n"


def rerun_text(run_link: str) -> str:
    return (
        "This looks like a problem of the runner or the network, not of the code: "
        f"{md.link('re-run the failed jobs', run_link)} (**Re-run jobs**, then "
        "**Re-run failed jobs** on the run page) before changing anything.\n\n"
    )


def job_section(
    view: JobView,
    context_lines: int,
    status: str,
    group: Sequence[JobView] = (),
    run_link: str = "",
) -> str:
    """The Markdown for one job; `group` lists every job that failed the same way (itself
    included) when there are several; `status` is the marker status of its proposal, if any."""
    label = view.category.replace("_", " ")
    if view.kind == "infra":
        label += " (infrastructure: advice only, no code change)"
    out = f"#### {md.code_span(view.name, 120)}: {label}\n\n"
    if len(group) > 1:
        out += _same(group)
    if view.title:
        out += f"**{md.text(view.title, 200)}**  \n"
    out += f"{view.decided[0].upper()}{view.decided[1:]}.\n\n"
    out += origin_line(view.origin)
    if view.evidence:
        out += _key_line(view, context_lines)
    elif view.link:
        out += f"See the {md.link('job log', view.link)}.\n\n"
    out += context_block(view, context_lines)
    if view.hint:
        hint = md.prose(view.hint, 1500, code=True)
        out += "".join(f"> {line}\n" for line in hint.split("\n")) + "\n"
    said = view.origin is not None and view.origin.origin in ("infra", "flaky")
    if view.kind == "infra" and run_link and not said:  # an infra/flaky origin line says it
        out += rerun_text(run_link)
    if view.diagnosis:
        out += f"**Diagnosis:** {md.prose(view.diagnosis, code=True)}\n\n"
    if view.proposal is not None:
        out += _proposal_block(view.proposal, status, view.diagnosis)
    return out


def compact_line(view: JobView, same: int = 1) -> str:
    """One list item per job (or group), for comments that would not fit otherwise."""
    title = f": {md.text(view.title, 120)}" if view.title else ""
    link = f" ({md.link('log', view.link)})" if view.link else ""
    more = f" (same in {same} jobs)" if same > 1 else ""
    origin = f", origin {origin_cell(view.origin)}" if view.origin else ""
    return f"- {md.code_span(view.name, 80)}: {view.category}{origin}{title}{link}{more}\n"


def _cell(text: str, limit: int) -> str:
    # GFM splits table cells at `|` even inside code spans; `\|` is shown as `|` there.
    return md.code_span(text, limit).replace("|", "\\|")


def summary_table(views: Sequence[JobView], limit: int = 20) -> str:
    """| Job | Category | Key line |, one row per job, the key line linked into the log."""
    rows = ["| Job | Category | Key line |", "|---|---|---|"]
    origins = any(v.origin for v in views)  # issue 14: an Origin column once there are origins
    if origins:
        rows = ["| Job | Category | Origin | Key line |", "|---|---|---|---|"]
    for v in views[:limit]:
        key = _cell(v.evidence[0].text, 100) if v.evidence else "(none)"
        if v.evidence and v.link:
            key = md.link(key, v.link)
        origin = f" {origin_cell(v.origin)} |" if origins else ""
        rows.append(f"| {_cell(v.name, 60)} | {v.category.replace('_', ' ')} |{origin} {key} |")
    more = len(views) - limit
    tail = f"\n\n… and {more} more jobs." if more > 0 else ""
    return "\n".join(rows) + tail + "\n\n"
