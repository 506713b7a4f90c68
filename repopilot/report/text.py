"""The report as plain text (`repopilot report`, the default format)."""

from __future__ import annotations

import re

from repopilot.report.records import Decider, Report, SignatureRow

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # a store's text must not drive the terminal

LABELS: dict[Decider, str] = {
    "pattern": "patterns",
    "learned": "learned patterns",
    "llm": "LLM",
    "none": "undecided",
}
NO_PRICES = "cost: not computed (give --price-in and --price-out, USD per million tokens)"


def headline(report: Report) -> str:
    """One sentence: how many failures, how many distinct ones, where, over which weeks."""
    span = f"{report.since} to {report.until} ({len(report.weeks)} ISO weeks)"
    if not report.failures:
        return f"no failures recorded from {span}"
    return (
        f"{_n(report.failures, 'failure')}, {_n(report.signatures, 'signature')}, "
        f"on {_n(report.prs, 'PR')}, {report.on_default} on the default branch, from {span}"
    )


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def cost_line(report: Report) -> str:
    """What the token figures are and whether they were priced."""
    where = "the run traces" if report.token_source == "traces" else "the store's llm_tokens"
    total = f"LLM tokens: {report.tokens:,} in total, from {where}"
    if report.cost_usd is not None:
        return f"{total}; cost {usd(report.cost_usd)}"
    if report.token_source == "store":
        return f"{total}; no cost (prompt and completion are not split there: --traces)"
    return f"{total}; {NO_PRICES}"


def shares_line(report: Report) -> str:
    parts = [f"{LABELS[s.decided_by]} {s.percent:g}% ({s.count})" for s in report.shares]
    return "decided by: " + ", ".join(parts)


def where(row: SignatureRow) -> str:
    """On which PRs and how often on the default branch it failed."""
    prs = ", ".join(f"#{n}" for n in row.prs[:5]) + (" ..." if len(row.prs) > 5 else "")
    on = [f"PRs {prs}" if row.prs else ""]
    if row.on_default:
        on.append(f"{_flat(row.default_branch or 'default branch', 60)} x{row.on_default}")
    return "; ".join(p for p in on if p) or "-"


def render_text(report: Report) -> str:
    lines = [f"RepoPilot report: {headline(report)}"]
    if report.failures:
        lines += ["", shares_line(report), "", "top failure signatures:"]
        lines.append(
            f"  {'count':>5}  {'last seen':<10}  {'category':<22}  title / signature / where"
        )
        for row in report.top:
            lines.append(
                f"  {row.count:>5}  {row.last_seen[:10]:<10}  {_flat(row.category):<22}  "
                f"{_flat(row.title) or '(no title)'}"
            )
            lines.append(f"  {'':>5}  {'':<10}  {'':<22}  {_flat(row.signature)}")
            lines.append(f"  {'':>5}  {'':<10}  {'':<22}  {where(row)}")
    lines += ["", "per ISO week:", *_weeks(report)]
    lines += ["", cost_line(report)]
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


def usd(cost: float) -> str:
    """Dollars, with cents below a dollar shown to a hundredth of a cent."""
    return f"${cost:,.2f}" if cost >= 1 else f"${cost:.4f}"


def _weeks(report: Report) -> list[str]:
    split = report.token_source == "traces"
    priced = report.cost_usd is not None
    head = f"  {'week':<9} {'failures':>8} {'default':>8} {'LLM runs':>9} {'tokens':>11}"
    head += f" {'prompt':>11} {'completion':>11}" if split else ""
    head += f" {'cost':>10}" if priced else ""
    lines = [head]
    for w in report.weeks:
        line = f"  {w.week:<9} {w.failures:>8} {w.on_default:>8} {w.llm_runs:>9} {w.tokens:>11,}"
        if split:
            line += f" {w.prompt_tokens or 0:>11,} {w.completion_tokens or 0:>11,}"
        if priced:
            line += f" {usd(w.cost_usd or 0.0):>10}"
        lines.append(line)
    return lines


def _flat(text: str, limit: int = 160) -> str:
    flat = " ".join(_CONTROL.sub(" ", text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
