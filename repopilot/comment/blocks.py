"""The Markdown of one failure: one job, or a group of jobs that failed the same way.

Read top to bottom in five seconds: the job(s) and category; the title; who decided it; the key
line, linked to its place in the job log and numbered as the log viewer numbers it (step and
line), inside a small block of the lines that explain it (shown once, marked `>`); the hint; the
diagnosis; the proposed fix; and last, always, the next step. With a fix waiting, the next step is
the apply/reject commands between `repopilot-cmd` delimiters, which `comment.status.mark_status`
replaces by the outcome after an apply or a reject.
Each fact is said once: a group's jobs are named once (in its heading, each linked to its log),
an origin shared by every job is in the comment's header instead of each section.
Only cleaned text arrives here (comment/sections.py); everything untrusted is made inert.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from repopilot.comment import markdown as md
from repopilot.comment.origin import (
    GUESS_NOTE,
    baseline_line,
    origin_cell,
    origin_line,
    rebase_step,
    rerun_link,
)
from repopilot.comment.sections import CONTEXT_CHARS, JobView, ProposalView
from repopilot.comment.status import cmd_close, cmd_open, outcome_text
from repopilot.records import Evidence

LLMState = Literal["off", "skipped", "on"]
"""The LLM in this run: not configured, configured but skipped (the comment says why), used."""
_NAMES = 8  # a group's heading names this many jobs, then "and N more"


def _rows(view: JobView, lines: int) -> tuple[list[Evidence], int]:
    centre = view.evidence[0].line if view.evidence else view.context[0].line
    rows = sorted(view.context, key=lambda e: (abs(e.line - centre), e.line))[:lines]
    return sorted(rows, key=lambda e: e.line), centre


def context_block(view: JobView, lines: int) -> str:
    """The explaining lines as `> N | text` (the key line) and `  N | text`, N as the log
    viewer shows it (the line within the step when the step is known); a gap is `⋮`."""
    if not view.context or lines <= 0:
        return ""
    rows, centre = _rows(view, lines)
    width = len(str(view.shown_line(rows[-1].line)))
    out, prev = [], None
    for e in rows:
        if prev is not None and e.line > prev + 1:
            out.append(f"  {'⋮':>{width}}\n")
        mark = ">" if e.line == centre else " "
        out.append(f"{mark} {view.shown_line(e.line):>{width}} | {e.text}\n")
        prev = e.line
    note = "" if len(rows) == len(view.context) else "(context trimmed to fit the comment)\n\n"
    return md.fence("".join(out), "text") + "\n" + note


def _key_line(view: JobView, lines: int, jobs: int) -> str:
    first = view.evidence[0]
    where = view.where(first.line)
    where = md.link(where, view.link) if view.link else where
    if view.step:
        where += f" ({md.code_span(view.step, 80)})"
    label = f"Key line (the same in all {jobs} jobs)" if jobs > 1 else "Key line"
    same = md.clip(first.text, CONTEXT_CHARS)
    shown = lines > 0 and any(
        e.line == first.line and e.text == same for e in _rows(view, lines)[0]
    )
    if view.context and shown:
        return f"{label}: {where}, marked `>` below.\n\n"
    return f"{label}, {where}: {md.code_span(first.text, CONTEXT_CHARS)}\n\n"


def shows_candidates(view: JobView) -> bool:
    """A guess nobody diagnosed (no pattern sure, no LLM answer) with more than one candidate:
    the comment lists them, ranked, instead of naming one key line (issue 27)."""
    guessed = view.guess or view.category == "unknown"
    return guessed and view.decided_by != "llm" and len(view.evidence) > 1


def candidates_block(view: JobView, lines: int, jobs: int) -> str:
    """`Best guess, most likely first:` and the evidence lines as a numbered list, each linked to
    its place in the job log; the first is the one marked `>` in the block below."""
    said = "best guess" in view.decided  # the decided line already says it is a best guess
    label = "Candidates, most likely first" if said else "Best guess, most likely first"
    if jobs > 1:
        label += f" (the same in all {jobs} jobs)"
    shown = {e.line for e in _rows(view, lines)[0]} if view.context and lines > 0 else set()
    rows = []
    for i, e in enumerate(view.evidence[:3]):
        link = view.links[i] if i < len(view.links) else ""
        where = md.link(view.where(e.line), link) if link else view.where(e.line)
        mark = " (marked `>` below)" if i == 0 and e.line in shown else ""
        rows.append(f"{i + 1}. {where}{mark}: {md.code_span(e.text, CONTEXT_CHARS)}\n")
    step = f" in {md.code_span(view.step, 80)}" if view.step else ""
    return f"{label}{step}:\n\n" + "".join(rows) + "\n"


def offered(p: ProposalView | None) -> bool:
    """A fix this comment shows with its commands (not withheld, not shown for an earlier job)."""
    return p is not None and not p.withheld and p.first


def _proposal_block(p: ProposalView, status: str, diagnosis_shown: str) -> str:
    if p.withheld:
        return f"A fix was proposed (`{p.id}`) but is not offered here: {md.text(p.withheld)}.\n\n"
    if not p.first:
        return ""  # the next step points at it
    out = f"**Proposed fix `{p.id}`** (confidence {p.confidence:.0%})\n\n"
    if p.diagnosis and " ".join(p.diagnosis.split()) != " ".join(diagnosis_shown.split()):
        out += md.prose(p.diagnosis, code=True) + "\n\n"
    out += md.fence(p.diff, "diff") + "\n"
    return out + f"{cmd_open(p.id)}\n\n{outcome_text(p.id, status)}\n\n{cmd_close()}\n\n"


def _names(group: Sequence[JobView]) -> str:
    """Each job once, linked to its key line in its own log."""
    shown = [
        md.link(md.code_span(v.name, 60), v.link) if v.link else md.code_span(v.name, 60)
        for v in group[:_NAMES]
    ]
    more = f" and {len(group) - _NAMES} more" if len(group) > _NAMES else ""
    return ", ".join(shown) + more


def _heading(group: Sequence[JobView]) -> str:
    view = group[0]
    label = view.category.replace("_", " ") + (" (a guess)" if view.guess else "")
    if view.kind == "infra":
        label += " (infrastructure: advice only, no code change)"
    if len(group) == 1:
        return f"#### {md.code_span(view.name, 120)}: {label}\n\n"
    return f"#### {_names(group)} ({len(group)} jobs): {label}\n\n"


def _unknown_step(view: JobView, llm: LLMState) -> str:
    log = md.link("job log", view.link) if view.link else "job log"
    read = (
        f"read the lines above and the end of the failing step in the {log}: a script "
        "usually prints why just before it exits."
    )
    if llm == "skipped":
        ask = "The LLM was skipped (see above): once that is fixed, re-run the failed jobs to "
        ask += "have it read this log."
    elif view.escalated:
        ask = "The LLM was asked and gave no answer; re-running the failed jobs asks it again."
    else:
        ask = (
            "To have an LLM read it, set the action's `llm` input (`openai` or `ollama`, with its "
            "key or host) and re-run the failed jobs; locally, "
            "`REPOPILOT_LLM=openai repopilot triage job.log --repo .` does the same."
        )
    return f"{read} {ask}"


def _local_step(view: JobView) -> str:
    if view.hint:
        return md.prose(view.hint, 1500, code=True)
    command = view.step.removeprefix("Run ").strip() if view.step.startswith("Run ") else ""
    if command:
        return (
            f"reproduce it locally with the step's command, {md.code_span(command, 200)}, fix "
            "what the key line points at, and push."
        )
    return "fix what the key line points at and push; CI runs again on the new commit."


def _hint_is_step(view: JobView) -> bool:
    """The pattern's hint is the next step for a code failure the PR may have caused."""
    o = view.origin.origin if view.origin else None
    return o not in ("base_branch", "flaky", "infra") and view.kind not in ("infra", "flaky")


def next_step(view: JobView, run_link: str, llm: LLMState = "off") -> str:
    """The last paragraph of a section: what to do now, fitting the origin and the verdict.
    Empty when the fix's commands (or its outcome) close the section instead."""
    p = view.proposal
    if offered(p):
        return ""
    if p is not None and not p.first and not p.withheld:
        step = f"the fix `{p.id}` above covers this failure too."
    elif view.origin is not None and view.origin.origin == "base_branch":
        step = rebase_step(view.origin)
    elif (view.origin is not None and view.origin.origin in ("flaky", "infra")) or view.kind in (
        "infra",
        "flaky",
    ):
        step = f"{rerun_link(view.origin, run_link)}; nothing in the code needs to change for it."
    elif (view.category == "unknown" or view.guess) and view.decided_by != "llm":
        step = _unknown_step(view, llm)
    else:
        step = _local_step(view)
    return f"**Next step:** {step}\n\n"


def job_section(
    group: Sequence[JobView],
    context_lines: int,
    status: str,
    run_link: str = "",
    show_origin: bool = True,
    llm: LLMState = "off",
) -> str:
    """The Markdown for one job or one group of jobs that failed the same way (`group[0]` speaks
    for all); `status` is the marker status of its proposal, if any; `show_origin` False when the
    comment's header already says the origin every job shares."""
    view = group[0]
    out = _heading(group)
    if view.title:
        out += f"**{md.text(view.title, 200)}**  \n"
    out += f"{view.decided[0].upper()}{view.decided[1:]}.\n\n"
    if view.guess:
        out += GUESS_NOTE + "\n\n"
    if show_origin:
        out += origin_line(view.origin)
    out += baseline_line(view.baseline_run)  # issue 20: which green run's log was compared
    out += view.seen  # issue 28: the same failure elsewhere (comment/seen.py)
    if shows_candidates(view):
        out += candidates_block(view, context_lines, len(group))
    elif view.evidence:
        out += _key_line(view, context_lines, len(group))
    elif view.link and len(group) == 1:
        out += f"See the {md.link('job log', view.link)}.\n\n"
    out += context_block(view, context_lines)
    base = view.origin is not None and view.origin.origin == "base_branch"
    if view.hint and not base and not (_hint_is_step(view) and not offered(view.proposal)):
        hint = md.prose(view.hint, 1500, code=True)
        out += "".join(f"> {line}\n" for line in hint.split("\n")) + "\n"
    if view.diagnosis:
        out += f"**Diagnosis:** {md.prose(view.diagnosis, code=True)}\n\n"
    out += "".join(f"A proposal was refused: {md.text(r, 200)}.\n\n" for r in view.rejected)
    if view.proposal is not None:
        out += _proposal_block(view.proposal, status, view.diagnosis)
    return out + next_step(view, run_link, llm)


def compact_line(group: Sequence[JobView]) -> str:
    """One list item per job (or group), for comments that would not fit otherwise."""
    view = group[0]
    title = f": {md.text(view.title, 120)}" if view.title else ""
    link = f" ({md.link('log', view.link)})" if view.link else ""
    names = ", ".join(md.code_span(v.name, 80) for v in group[:3])
    names += f" and {len(group) - 3} more" if len(group) > 3 else ""
    origin = f", origin {origin_cell(view.origin)}" if view.origin else ""
    return f"- {names}: {view.category}{origin}{title}{link}\n"


def _cell(text: str, limit: int) -> str:
    # GFM splits table cells at `|` even inside code spans; `\|` is shown as `|` there.
    return md.code_span(text, limit).replace("|", "\\|")


def summary_table(groups: Sequence[Sequence[JobView]], limit: int = 20) -> str:
    """| Job | Category | Key line |: one row per distinct failure, its jobs listed in the row,
    the key line linked into the first job's log."""
    rows = ["| Job | Category | Key line |", "|---|---|---|"]
    origins = any(g[0].origin for g in groups)  # issue 14: an Origin column once there are origins
    if origins:
        rows = ["| Job | Category | Origin | Key line |", "|---|---|---|---|"]
    for group in groups[:limit]:
        v = group[0]
        key = _cell(v.evidence[0].text, 100) if v.evidence else "(none)"
        if v.evidence and v.link:
            key = md.link(key, v.link)
        jobs = ", ".join(_cell(j.name, 60) for j in group[:_NAMES])
        jobs += f" and {len(group) - _NAMES} more" if len(group) > _NAMES else ""
        origin = f" {origin_cell(v.origin)} |" if origins else ""
        rows.append(f"| {jobs} | {v.category.replace('_', ' ')} |{origin} {key} |")
    more = len(groups) - limit
    tail = f"\n\n… and {more} more failures." if more > 0 else ""
    return "\n".join(rows) + tail + "\n\n"
