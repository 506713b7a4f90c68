"""The report as Markdown: what `repopilot report --format markdown` prints and `--summary`
appends to the job summary (GITHUB_STEP_SUMMARY).

Two Mermaid charts (GitHub renders ```` ```mermaid ```` blocks in job summaries, comments and
files): an `xychart-beta` bar chart of failures per ISO week and a pie of who decided them, then
the top signatures and the weeks as tables. The charts carry only numbers and labels made here;
every text from the store (titles, signatures, categories) goes through comment/markdown's inert
forms, and a link is kept only when it is an Actions run or job page (of this repository, when the
caller knows it: `home`).
"""

from __future__ import annotations

import re

from repopilot.comment.markdown import code_span, text
from repopilot.report.records import Report, SignatureRow
from repopilot.report.text import LABELS, cost_line, headline, usd

# an Actions run page, or a job page with its step anchor: the store is written by anyone with push
# access, so nothing else (another site, another page, a path climbing out with ..) is linked
_URL = re.compile(
    r"https?://[A-Za-z0-9.-]+(?::[0-9]+)?/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/actions/runs/[0-9]+"
    r"(?:/attempts/[0-9]+)?(?:/job/[0-9]+(?:#step:[0-9]+:[0-9]+)?)?"
)


def _cell(markdown: str) -> str:
    # GFM splits a table row at every unescaped pipe, code spans included
    return markdown.replace("|", "\\|")


def runs_home(server_url: str, repository: str) -> str:
    """This repository's run pages' start, `https://github.com/OWNER/REPO/actions/runs/`."""
    return f"{server_url.rstrip('/')}/{repository}/actions/runs/"


def _link(label: str, url: str | None, home: str | None) -> str:
    if not url or not _URL.fullmatch(url):
        return ""
    # the right shape on another host, or of another repository, is still someone else's page
    if home is not None and not url.lower().startswith(home.lower()):
        return ""
    return f"[{label}]({url})"


def _bars(report: Report, title: str, axis: str, values: list[int]) -> str:
    """An `xychart-beta` bar chart of one number per ISO week (x labels `W48`: the year is in
    the table)."""
    labels = ", ".join(f'"{w.week[5:]}"' for w in report.weeks)
    bars = ", ".join(str(v) for v in values)
    return "\n".join(
        [
            "```mermaid",
            "xychart-beta",
            f'    title "{title}"',
            f"    x-axis [{labels}]",
            f'    y-axis "{axis}" 0 --> {max([*values, 1])}',
            f"    bar [{bars}]",
            "```",
        ]
    )


def failures_chart(report: Report) -> str:
    """A bar chart of failures per ISO week."""
    return _bars(report, "Failures per ISO week", "failures", [w.failures for w in report.weeks])


def tokens_chart(report: Report) -> str:
    return _bars(report, "LLM tokens per ISO week", "tokens", [w.tokens for w in report.weeks])


def deciders_chart(report: Report) -> str:
    """A pie of who decided the failures; empty slices are left out (Mermaid draws them as
    slivers with a label)."""
    slices = [f'    "{LABELS[s.decided_by]}" : {s.count}' for s in report.shares if s.count]
    return "\n".join(["```mermaid", "pie title Decided by", *slices, "```"])


def _row(n: int, row: SignatureRow, home: str | None) -> str:
    prs = ", ".join(f"\\#{p}" for p in row.prs[:8]) + (" …" if len(row.prs) > 8 else "")
    pages = (_link("run", row.last_run_url, home), _link("job", row.last_job_url, home))
    links = " ".join(x for x in pages if x)
    cells = [
        str(n),
        str(row.count),
        code_span(row.category, 40),
        text(row.title, 120) or "—",
        code_span(row.signature, 120),
        row.last_seen[:10],
        prs or "—",
        f"{row.on_default} on {code_span(row.default_branch or 'default', 60)}"
        if row.on_default
        else "—",
        links or "—",
    ]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _weeks_table(report: Report) -> list[str]:
    split = report.token_source == "traces"
    head = ["week", "from", "failures", "on default", "LLM runs", "tokens"]
    if split:
        head += ["prompt", "completion"]
    if report.cost_usd is not None:
        head.append("cost (USD)")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in report.weeks:
        cells = [
            w.week,
            w.start,
            str(w.failures),
            str(w.on_default),
            str(w.llm_runs),
            f"{w.tokens:,}",
        ]
        if split:
            cells += [f"{w.prompt_tokens or 0:,}", f"{w.completion_tokens or 0:,}"]
        if report.cost_usd is not None:
            cells.append(usd(w.cost_usd or 0.0)[1:])
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_markdown(report: Report, home: str | None = None) -> str:
    """The report as Markdown; with `home` (`runs_home(...)`: the Action, `--repo`) a link is kept
    only when it is a run or job page of that repository, else of any host (a local store)."""
    line = headline(report)
    out = ["## RepoPilot report", "", line[:1].upper() + line[1:] + "."]
    if report.failures:
        shares = ", ".join(
            f"{LABELS[s.decided_by]} **{s.percent:g}%** ({s.count})" for s in report.shares
        )
        out += [
            "",
            f"Decided by: {shares}.",
            "",
            failures_chart(report),
            "",
            deciders_chart(report),
        ]
        out += ["", "### Top failure signatures", ""]
        out.append(
            "| # | failures | category | title | signature | last seen | PRs | default branch | latest |"
        )
        out.append("|---:|---:|---|---|---|---|---|---|---|")
        out += [_row(n, row, home) for n, row in enumerate(report.top, 1)]
    out += ["", "### LLM tokens per ISO week", ""]
    if report.tokens:
        out += [tokens_chart(report), ""]
    out += _weeks_table(report)
    # GitHub reads text between two dollar signs as math
    out += ["", cost_line(report).replace("$", "\\$") + "."]
    if report.notes:
        out += ["", *(f"- {text(n, 300)}" for n in report.notes)]
    return "\n".join(out) + "\n"
