"""repopilot/report/tally.py: counts, shares, ordering, ISO weeks, tokens and cost."""

from __future__ import annotations

from datetime import date

import pytest

from repopilot.report.records import Prices
from repopilot.report.tally import build, week_of, when
from tests.report.seen_data import record, sample, trace

pytestmark = pytest.mark.unit

SUNDAY = date(2026, 11, 29)  # the last day of 2026-W48


def test_counts_and_shares_of_who_decided():
    report = build(sample(), until=SUNDAY, weeks=2)
    assert (report.failures, report.signatures, report.prs, report.on_default) == (7, 4, 3, 1)
    shares = {s.decided_by: (s.count, s.percent) for s in report.shares}
    assert shares == {
        "pattern": (3, 42.9),
        "learned": (2, 28.6),
        "llm": (1, 14.3),
        "none": (1, 14.3),
    }


def test_top_signatures_by_count_then_last_seen():
    report = build(sample(), until=SUNDAY, weeks=2)
    order = [(r.signature.split("|")[0], r.count) for r in report.top]
    # the two seen once: the later one ("weird", Nov 26) before the segfault (Nov 19)
    assert order == [
        ("python-pytest-failed", 3),
        ("npm-eresolve", 2),
        ("unknown", 1),
        ("unknown", 1),
    ]
    assert report.top[2].signature == "unknown|line=weird"
    login = report.top[0]
    assert login.prs == (11, 13) and login.on_default == 1
    assert (login.first_seen, login.last_seen) == ("2026-11-17T10:00:00Z", "2026-11-27T23:59:59Z")
    assert login.last_run_url.endswith("/runs/7") and login.title == "test_login failed"
    assert report.top[1].decided_by == "learned"


def test_a_tie_in_count_goes_to_the_one_seen_last_and_top_limits_the_rows():
    records = [
        record("a|x=1", "2026-11-17T00:00:00Z"),
        record("b|x=1", "2026-11-18T00:00:00Z"),
        record("a|x=1", "2026-11-20T00:00:00Z"),
        record("b|x=1", "2026-11-21T00:00:00Z"),
        record("c|x=1", "2026-11-28T00:00:00Z"),
    ]
    report = build(records, until=SUNDAY, weeks=2, top=2)
    assert [r.signature for r in report.top] == ["b|x=1", "a|x=1"]


def test_the_latest_title_and_category_name_a_signature():
    records = [
        record("s|x=1", "2026-11-17T00:00:00Z", title="old", category="other"),
        record("s|x=1", "2026-11-18T00:00:00Z", title="", category="test_failure"),
    ]
    (row,) = build(records, until=SUNDAY, weeks=2).top
    assert (row.title, row.category) == ("old", "test_failure")


def test_weeks_are_iso_weeks_in_utc():
    records = [
        record("s|x=1", "2026-11-22T23:59:59Z"),  # Sunday of W47
        record("s|x=1", "2026-11-23T00:30:00+01:00"),  # 23:30 UTC on that Sunday: W47 too
        record("s|x=1", "2026-11-23T00:00:00Z"),  # Monday of W48
        record("s|x=1", "2026-11-23T00:00:00"),  # no offset: taken as UTC
        record("s|x=1", "2026-11-15T12:00:00Z"),  # W46: before the window
        record("s|x=1", "2026-11-30T00:00:00Z"),  # W49: after it
    ]
    report = build(records, until=SUNDAY, weeks=2)
    assert [(w.week, w.start, w.failures) for w in report.weeks] == [
        ("2026-W47", "2026-11-16", 2),
        ("2026-W48", "2026-11-23", 2),
    ]
    assert (report.since, report.until, report.failures) == ("2026-11-16", "2026-11-29", 4)


def test_a_week_with_no_failure_is_still_a_week_and_until_mid_week_counts_its_week():
    report = build(sample(), until=date(2026, 12, 2), weeks=3)  # a Wednesday of W49
    assert [(w.week, w.failures) for w in report.weeks] == [
        ("2026-W47", 3),
        ("2026-W48", 4),
        ("2026-W49", 0),
    ]


def test_iso_weeks_across_the_new_year():
    assert week_of(date(2027, 1, 1)) == "2026-W53"  # 2026 has 53 ISO weeks
    assert week_of(date(2027, 1, 4)) == "2027-W01"
    report = build([], until=date(2027, 1, 5), weeks=2)
    assert [w.week for w in report.weeks] == ["2026-W53", "2027-W01"]


def test_tokens_and_cost_per_week_from_the_traces_with_prices():
    traces = [
        trace("t1", "2026-11-17T10:00:00.000Z", 600_000, 150_000),
        trace("t2", "2026-11-19T10:00:00.000Z", 400_000, 50_000),
        trace("t3", "2026-11-24T10:00:00.000Z", 500_000, 100_000, calls=2),
        trace("t4", "2026-11-01T10:00:00.000Z", 9_000_000, 9_000_000),  # before the window
    ]
    report = build(sample(), traces, until=SUNDAY, weeks=2, prices=Prices(2.5, 10.0))
    w47, w48 = report.weeks
    assert (w47.prompt_tokens, w47.completion_tokens, w47.tokens, w47.llm_runs) == (
        1_000_000,
        200_000,
        1_200_000,
        2,
    )
    assert w47.cost_usd == pytest.approx(4.5)  # 1M x $2.5 + 0.2M x $10
    assert w48.cost_usd == pytest.approx(2.25)
    assert report.cost_usd == pytest.approx(6.75) and report.priced
    assert report.token_source == "traces" and report.tokens == 1_800_000


def test_tokens_without_prices_have_no_cost():
    traces = [trace("t1", "2026-11-17T10:00:00.000Z", 1000, 200)]
    report = build(sample(), traces, until=SUNDAY, weeks=2)
    assert report.tokens == 1200 and report.cost_usd is None and not report.priced
    assert all(w.cost_usd is None for w in report.weeks)


def test_without_traces_the_store_gives_token_totals_and_no_cost():
    report = build(sample(), until=SUNDAY, weeks=2, prices=Prices(2.5, 10.0))
    assert report.token_source == "store"
    assert [(w.tokens, w.prompt_tokens, w.llm_runs) for w in report.weeks] == [
        (3000, None, 1),
        (0, None, 0),
    ]
    assert report.cost_usd is None and not report.priced
    assert any("do not split" in n for n in report.notes)


def test_an_unreadable_time_is_left_out_and_said():
    records = [*sample(), record("s|x=1", "yesterday")]
    report = build(records, [trace("t", "soon", 5, 5)], until=SUNDAY, weeks=2)
    assert report.failures == 7
    assert report.notes == (
        "1 store record(s) with an unreadable time left out",
        "1 trace(s) with an unreadable time left out",
    )


def test_an_empty_store_is_an_empty_report():
    report = build([], until=SUNDAY, weeks=4)
    assert report.failures == 0 and report.top == () and len(report.weeks) == 4
    assert all(s.percent == 0.0 for s in report.shares)


def test_when_reads_iso_times_as_utc():
    assert when("2026-11-23T01:00:00+02:00") == when("2026-11-22T23:00:00Z")
    assert when("not a time") is None
