"""The report's numbers, computed from the seen-before store's records and the run traces.

Pure: records in, one frozen `Report` out; no file, clock or environment is read here (the command
passes `until`, today by default). A record's text is the memory branch's, which anyone with push
access can write: the rows carry it without invisible and bidi characters or HTML comments
(safety/hygiene.py), so no form of the report shows text reordered or hidden. The window is the
`weeks` ISO weeks (Monday to Sunday, UTC) ending with the week of `until`; records and traces
outside it are left out.

LLM tokens come from the traces when any is given (they split prompt and completion tokens, so a
cost can be put on them); otherwise from the store's `llm_tokens`, a total only, so no cost. The
two are never added: a trace and a store record can describe the same LLM call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import TypeVar

from repopilot.report.records import (
    DECIDERS,
    Decider,
    Prices,
    Report,
    Share,
    SignatureRow,
    TokenSource,
    Week,
)
from repopilot.run_records import RunTrace, SeenRecord
from repopilot.safety.hygiene import sanitize

_T = TypeVar("_T")


def when(stamp: str) -> datetime | None:
    """An ISO 8601 time as aware UTC (a naive one is taken as UTC); None when unreadable,
    also when it leaves the calendar once taken to UTC (`9999-12-31T23:59:59-23:59`: a hand-made
    record must cost only itself, not the report)."""
    try:
        at = datetime.fromisoformat(stamp.strip().replace("Z", "+00:00"))
        return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def week_of(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def decider(record: SeenRecord) -> Decider:
    if record.decided_by == "pattern":
        return "learned" if record.learned else "pattern"
    return record.decided_by


def _mondays(until: date, weeks: int) -> list[date]:
    last = until - timedelta(days=until.weekday())
    return [last - timedelta(weeks=n) for n in range(weeks - 1, -1, -1)]


def build(
    records: Sequence[SeenRecord],
    traces: Sequence[RunTrace] = (),
    *,
    until: date,
    weeks: int = 8,
    top: int = 10,
    prices: Prices | None = None,
) -> Report:
    """The report over the `weeks` ISO weeks ending with `until`'s week (module docstring)."""
    mondays = _mondays(until, max(1, weeks))
    start = datetime.combine(mondays[0], datetime.min.time(), UTC)
    end = start + timedelta(weeks=len(mondays))
    notes: list[str] = []
    dated = _in_window(((r.at, r) for r in records), start, end, "store record", notes)
    runs = _in_window(((t.started_at, t) for t in traces), start, end, "trace", notes)
    source: TokenSource = "traces" if traces else "store"
    rows = tuple(_week(m, dated, runs, source, prices) for m in mondays)
    shares = _shares([r for _, r in dated])
    tokens = sum(w.tokens for w in rows)
    costs = [w.cost_usd for w in rows]
    priced = prices is not None and source == "traces"
    if prices is not None and source == "store":
        notes.append(
            "no cost: the store's llm_tokens do not split prompt and completion (--traces)"
        )
    return Report(
        since=mondays[0].isoformat(),
        until=(mondays[-1] + timedelta(days=6)).isoformat(),
        weeks=rows,
        failures=len(dated),
        signatures=len({r.signature for _, r in dated}),
        prs=len({r.pr for _, r in dated if r.pr is not None}),
        on_default=sum(1 for _, r in dated if r.on_default),
        top=_top([(at, r) for at, r in dated], top),
        shares=shares,
        token_source=source,
        tokens=tokens,
        cost_usd=round(sum(c for c in costs if c is not None), 4) if priced else None,
        priced=priced,
        notes=tuple(notes),
    )


def _in_window(
    items: Iterable[tuple[str, _T]], start: datetime, end: datetime, what: str, notes: list[str]
) -> list[tuple[datetime, _T]]:
    kept: list[tuple[datetime, _T]] = []
    unreadable = 0
    for stamp, item in items:
        at = when(stamp)
        if at is None:
            unreadable += 1
        elif start <= at < end:
            kept.append((at, item))
    if unreadable:
        notes.append(f"{unreadable} {what}(s) with an unreadable time left out")
    return kept


def _week(
    monday: date,
    dated: list[tuple[datetime, SeenRecord]],
    runs: list[tuple[datetime, RunTrace]],
    source: TokenSource,
    prices: Prices | None,
) -> Week:
    mine = [r for at, r in dated if _same_week(at.date(), monday)]
    base = Week(
        week=week_of(monday),
        start=monday.isoformat(),
        failures=len(mine),
        on_default=sum(1 for r in mine if r.on_default),
        llm_runs=sum(1 for r in mine if r.decided_by == "llm" or r.llm_tokens),
        tokens=sum(r.llm_tokens for r in mine),
        prompt_tokens=None,
        completion_tokens=None,
        cost_usd=None,
    )
    if source == "store":
        return base
    used = [t for at, t in runs if _same_week(at.date(), monday)]
    prompt = sum(t.usage.prompt_tokens for t in used)
    completion = sum(t.usage.completion_tokens for t in used)
    cost = None
    if prices is not None:
        cost = round((prompt * prices.per_mtok_in + completion * prices.per_mtok_out) / 1e6, 4)
    return replace(
        base,
        llm_runs=sum(1 for t in used if t.usage.llm_calls or t.usage.prompt_tokens),
        tokens=prompt + completion,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
    )


def _same_week(day: date, monday: date) -> bool:
    return timedelta(0) <= day - monday < timedelta(weeks=1)


def _shares(records: list[SeenRecord]) -> tuple[Share, ...]:
    counts = {d: 0 for d in DECIDERS}
    for r in records:
        counts[decider(r)] += 1
    total = len(records)
    return tuple(
        Share(d, n, round(100.0 * n / total, 1) if total else 0.0) for d, n in counts.items()
    )


def _top(dated: list[tuple[datetime, SeenRecord]], limit: int) -> tuple[SignatureRow, ...]:
    groups: dict[str, list[tuple[datetime, SeenRecord]]] = {}
    for at, r in sorted(dated, key=lambda p: p[0]):
        groups.setdefault(r.signature, []).append((at, r))
    rows = []
    for sig, seen in groups.items():
        last_at, last = seen[-1]
        title = next((r.title for _, r in reversed(seen) if r.title), "")
        rows.append(
            (
                (-len(seen), -last_at.timestamp(), sig),
                SignatureRow(
                    signature=sanitize(sig),
                    count=len(seen),
                    category=sanitize(last.category),
                    title=sanitize(title),
                    decided_by=decider(last),
                    pattern_id=sanitize(last.pattern_id) if last.pattern_id else None,
                    first_seen=seen[0][0].isoformat().replace("+00:00", "Z"),
                    last_seen=last_at.isoformat().replace("+00:00", "Z"),
                    prs=tuple(sorted({r.pr for _, r in seen if r.pr is not None})),
                    on_default=sum(1 for _, r in seen if r.on_default),
                    default_branch=next(
                        (sanitize(r.branch) for _, r in seen if r.on_default), None
                    ),
                    last_run_url=last.run_url,
                    last_job_url=last.job_url,
                ),
            )
        )
    rows.sort(key=lambda p: p[0])
    return tuple(row for _, row in rows[: max(0, limit)])
