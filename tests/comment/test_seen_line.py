"""The comment's "Seen before" line (issue 28, repopilot/comment/seen.py): other PRs, the default
branch, a learned pattern; the memory's records are untrusted (anyone with write access can edit
the branch), so nothing in them links, mentions or renders beyond what the line builds."""

from __future__ import annotations

import pytest

from repopilot.comment.seen import seen_block
from repopilot.run_records import SeenBefore, SeenRecord, TriageResult
from tests.comment.test_comment_render import ctx, job, render, verdict

pytestmark = pytest.mark.unit

RUNS = "https://github.com/octo/app/actions/runs"


def rec(run_id: int, pr: int | None = None, day: str = "2026-11-20", **kw) -> SeenRecord:
    base = dict(
        signature="s",
        category="test_failure",
        decided_by="pattern",
        pr=pr,
        branch="main" if pr is None else f"b{pr}",
        on_default=pr is None,
        run_id=run_id,
        run_url=f"{RUNS}/{run_id}",
        job="test",
        head_sha="a" * 40,
        at=f"{day}T08:00:00Z",
    )
    base.update(kw)
    return SeenRecord(**base)


def result(seen: SeenBefore | None = None, **kw) -> TriageResult:
    return TriageResult(verdict=verdict(**kw), seen=seen)


def test_nothing_seen_says_nothing():
    assert seen_block(result()) == ""
    assert seen_block(result(SeenBefore(signature="s"))) == ""


def test_other_prs_newest_first_then_how_many_more():
    prs = tuple(rec(10 + n, pr=n) for n in (5, 4, 3, 2))
    line = seen_block(result(SeenBefore(signature="s", prs=prs, pr_count=6)))
    assert line.startswith(f"**Seen before:** also failed on PR #5 ([run](<{RUNS}/15>)), PR #4")
    assert "PR #3" in line and "PR #2" not in line and "and 3 more PRs." in line


def test_the_default_branch_since_its_oldest_record_with_the_latest():
    first, last = rec(800, day="2026-11-20"), rec(811, day="2026-11-29")
    seen = SeenBefore(signature="s", default=(first, last), default_runs=4)
    line = seen_block(result(seen))
    assert f"on ` main ` since 2026-11-20 ([run](<{RUNS}/800>), 4 runs" in line
    assert f"latest [2026-11-29](<{RUNS}/811>))" in line


def test_a_learned_pattern_says_where_it_was_learned():
    r = result(pattern_id="repo.learned.flaky-db", learned_from="learned from ci.log:42")
    line = seen_block(r)
    assert line == (
        "**Seen before:** learned pattern ` repo.learned.flaky-db ` (learned from ci\\.log\\:42).\n\n"
    )


def test_hand_edited_records_stay_inert():
    evil = rec(
        1,
        pr=3,
        run_url="javascript:alert(1)",
        at="<img src=x>",
        branch="@admin [x](http://evil)",
    )
    main = rec(2, branch="@admin `x` [y](http://evil)", at="garbage")
    seen = SeenBefore(signature="s", prs=(evil,), pr_count=1, default=(main,), default_runs=1)
    line = seen_block(result(seen))
    assert "javascript:" not in line and "<img" not in line and "(<http://evil" not in line
    assert "PR #3 (run)" in line and "since an earlier run" in line
    assert "on `` @admin `x` [y](http://evil) `` since" in line  # verbatim in a code span


def test_the_line_sits_in_the_jobs_section():
    seen = SeenBefore(signature="s", prs=(rec(15, pr=5),), pr_count=1)
    body = render([job(result(seen))], ctx())
    section = body[body.index("#### ") :]
    assert "**Seen before:** also failed on PR #5" in section
    assert section.index("Seen before") < section.index("Key line")
