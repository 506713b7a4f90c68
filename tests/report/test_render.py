"""repopilot/report/text.py and markdown.py: the report as a terminal and a job summary read it."""

from __future__ import annotations

import json
from datetime import date

import pytest

from repopilot.report.markdown import render_markdown
from repopilot.report.records import Prices
from repopilot.report.tally import build
from repopilot.report.text import render_text
from tests.report.seen_data import record, sample, trace

pytestmark = pytest.mark.unit

SUNDAY = date(2026, 11, 29)


def _mermaid_blocks(markdown: str) -> list[str]:
    parts = markdown.split("```mermaid\n")[1:]
    return [p.split("\n```", 1)[0] for p in parts]


def test_markdown_has_a_bar_chart_per_week_and_a_pie_of_who_decided():
    md = render_markdown(build(sample(), until=SUNDAY, weeks=2))
    bars, pie, tokens = _mermaid_blocks(md)  # tokens: the store's llm_tokens (3000 in W47)
    assert bars.splitlines() == [
        "xychart-beta",
        '    title "Failures per ISO week"',
        '    x-axis ["W47", "W48"]',
        '    y-axis "failures" 0 --> 4',
        "    bar [3, 4]",
    ]
    assert tokens.splitlines()[-1] == "    bar [3000, 0]"
    assert pie.splitlines() == [
        "pie title Decided by",
        '    "patterns" : 3',
        '    "learned patterns" : 2',
        '    "LLM" : 1',
        '    "undecided" : 1',
    ]


def test_markdown_tables_of_signatures_and_weeks():
    traces = [trace("t1", "2026-11-17T10:00:00Z", 1_000_000, 200_000)]
    md = render_markdown(build(sample(), traces, until=SUNDAY, weeks=2, prices=Prices(2.5, 10)))
    lines = md.splitlines()
    head = lines.index("### Top failure signatures")
    assert lines[head + 2].startswith("| # | failures | category | title | signature |")
    first = lines[head + 4]
    assert first.startswith("| 1 | 3 | ` test_failure ` | test\\_login failed |")
    # the signature's pipe is escaped: GFM would split the cell there, code span or not
    assert "` python-pytest-failed\\|test=tests/test_api.py::test_login `" in first
    assert "| \\#11, \\#13 | 1 on ` main ` |" in first
    assert "\\#11, \\#13" in first and "[run](https://github.example/o/r/actions/runs/7)" in first
    assert (
        "| week | from | failures | on default | LLM runs | tokens | prompt | completion | cost (USD) |"
        in lines
    )
    assert "| 2026-W47 | 2026-11-16 | 3 | 0 | 1 | 1,200,000 | 1,000,000 | 200,000 | 4.50 |" in lines
    assert lines[-1] == "LLM tokens: 1,200,000 in total, from the run traces; cost \\$4.50."
    assert "LLM tokens per ISO week" in md and len(_mermaid_blocks(md)) == 3


def test_store_text_is_inert_in_markdown():
    hostile = record(
        "evil|x=`a` | b",
        "2026-11-20T00:00:00Z",
        title="@maintainer see #12 <img src=x> [click](https://evil.example)",
        category="other",
    )
    hostile = hostile.model_copy(update={"run_url": "javascript:alert(1)", "job_url": None})
    md = render_markdown(build([hostile], until=SUNDAY, weeks=2))
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert "@maintainer" not in row and "#12" not in row
    assert "\\<img" in row and "\\]\\(https" in row  # escaped: shown as text, no tag or link
    assert "javascript:" not in row
    assert row.count(" | ") == 8  # nine cells: no pipe from the store split the row
    assert "```" not in "".join(_mermaid_blocks(md))  # charts hold only numbers and our labels


def test_text_report_lists_shares_signatures_and_weeks():
    out = render_text(build(sample(), until=SUNDAY, weeks=2))
    assert out.splitlines()[0] == (
        "RepoPilot report: 7 failures, 4 signatures, on 3 PRs, 1 on the default branch, "
        "from 2026-11-16 to 2026-11-29 (2 ISO weeks)"
    )
    assert (
        "decided by: patterns 42.9% (3), learned patterns 28.6% (2), LLM 14.3% (1), "
        "undecided 14.3% (1)"
    ) in out
    assert "python-pytest-failed|test=tests/test_api.py::test_login" in out
    assert "PRs #11, #13; main x1" in out
    assert "  2026-W47         3        0         1       3,000" in out
    assert out.splitlines()[-1] == (
        "LLM tokens: 3,000 in total, from the store's llm_tokens; no cost (prompt and "
        "completion are not split there: --traces)"
    )


def test_text_says_when_tokens_are_not_priced():
    out = render_text(build(sample(), [trace("t", "2026-11-17T00:00:00Z", 10, 5)], until=SUNDAY))
    assert "cost: not computed (give --price-in and --price-out" in out


def test_text_strips_terminal_control_characters():
    r = record("s|x=1", "2026-11-20T00:00:00Z", title="red \x1b[31mALERT\x1b]0;pwned\x07")
    out = render_text(build([r], until=SUNDAY, weeks=2))
    assert "\x1b" not in out and "\x07" not in out and "red [31mALERT ]0;pwned" in out


def test_an_empty_store_is_a_quiet_report():
    report = build([], until=SUNDAY, weeks=2)
    assert render_text(report).splitlines()[0] == (
        "RepoPilot report: no failures recorded from 2026-11-16 to 2026-11-29 (2 ISO weeks)"
    )
    md = render_markdown(report)
    assert "No failures recorded" in md and "pie" not in md and "Top failure" not in md


def test_the_json_form_is_the_whole_report():
    data = json.loads(json.dumps(build(sample(), until=SUNDAY, weeks=2).contract()))
    assert data["failures"] == 7 and data["token_source"] == "store"
    assert data["top"][0]["count"] == 3 and data["weeks"][1]["week"] == "2026-W48"
    assert {s["decided_by"] for s in data["shares"]} == {"pattern", "learned", "llm", "none"}


def test_the_pie_leaves_out_empty_slices():
    only = [record("s|x=1", "2026-11-20T00:00:00Z"), record("t|x=1", "2026-11-21T00:00:00Z")]
    _, pie = _mermaid_blocks(render_markdown(build(only, until=SUNDAY, weeks=2)))
    assert pie.splitlines() == ["pie title Decided by", '    "patterns" : 2']
