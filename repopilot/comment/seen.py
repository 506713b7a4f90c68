"""The comment's "Seen before" line for one failure (issue 28, docs/MEMORY.md).

Two sources, one paragraph: the repository's learned pattern that decided the verdict
(`Verdict.learned_from`, "learned pattern `<id>` (learned from <source>)"), and the memory's
earlier records of the same signature (`TriageResult.seen`): "also failed on PR #N (run) /
on `main` since <date> (run)". Records are read from a branch anyone with write access can
edit, so every field is treated as untrusted: text is cleaned and made inert, numbers are
numbers, and only http(s) run pages are linked.
"""

from __future__ import annotations

from repopilot.comment import markdown as md
from repopilot.run_records import SeenBefore, SeenRecord, TriageResult
from repopilot.safety.redact import clean_for_model

SHOWN_PRS = 3  # PRs named in the line, then "and N more"


def _run(record: SeenRecord, label: str = "run") -> str:
    url = record.run_url
    return md.link(label, url) if url.startswith(("https://", "http://")) else md.text(label)


def _day(record: SeenRecord) -> str:
    day = record.at[:10]
    return day if len(day) == 10 and day.replace("-", "").isdigit() else "an earlier run"


def _learned(result: TriageResult) -> str:
    v = result.verdict
    if v.learned_from is None or v.pattern_id is None:
        return ""
    source = clean_for_model(v.learned_from).text.strip()
    source = source.removeprefix("learned from").strip() or "an earlier failure"
    pid = md.code_span(v.pattern_id, 120)
    return f"learned pattern {pid} (learned from {md.text(source, 200)})"


def _prs(seen: SeenBefore) -> str:
    shown = [f"PR #{int(r.pr)} ({_run(r)})" for r in seen.prs[:SHOWN_PRS] if r.pr is not None]
    if not shown:
        return ""
    more = seen.pr_count - len(shown)
    tail = f" and {more} more PR{'s' if more != 1 else ''}" if more > 0 else ""
    return "also failed on " + ", ".join(shown) + tail


def _default(seen: SeenBefore) -> str:
    if not seen.default:
        return ""
    first, last = seen.default[0], seen.default[-1]
    branch = md.code_span(clean_for_model(first.branch).text, 80)
    runs = seen.default_runs
    count = f", {runs} runs" if runs > 1 else ""
    latest = f", latest {_run(last, _day(last))}" if last != first and runs > 1 else ""
    return f"on {branch} since {_day(first)} ({_run(first)}{count}{latest})"


def seen_block(result: TriageResult) -> str:
    """The "Seen before" paragraph, or "" when nothing was seen before."""
    parts = [p for p in (_learned(result),) if p]
    seen = result.seen
    if seen is not None:
        places = [p for p in (_prs(seen), _default(seen)) if p]
        if places:
            parts.append(" / ".join(places))
    if not parts:
        return ""
    return f"**Seen before:** {'; '.join(parts)}.\n\n"
