"""Attacks on `repopilot report` and the Action's `mode: report` (issue 28) through the memory
branch: anyone with push access can write `seen.json` on `repopilot-memory` (docs/MEMORY.md,
"Records are untrusted"), and the scheduled report puts what it reads into the job summary.

- a record whose time is valid ISO 8601 but leaves the calendar once taken to UTC
  (`9999-12-31T23:59:59-23:59`) must cost only that record, not the report (it was an
  OverflowError: the CLI blamed `--until`, the Action's scheduled job failed);
- a record's run link must be a run page of THIS repository in the Action's job summary (an
  Actions-shaped path on another host or of another repository was linked);
- invisible and bidi characters in a record's title or signature must not reach the report
  (they reorder what a maintainer reads: "Trojan source" in a job summary or a terminal).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from repopilot.cli import main
from repopilot.github.seen_store import BRANCH
from repopilot.report.markdown import render_markdown
from repopilot.report.tally import build
from repopilot.report.text import render_text
from repopilot.run_records import SeenFile
from tests.loopback.github_action import REPO, run_action
from tests.report.seen_data import record, write_store

pytestmark = pytest.mark.integration

SCHEDULE = {"schedule": "23 6 * * 1", "repository": {"full_name": REPO, "name": "octo-repo"}}
SUNDAY = date(2026, 11, 29)
OFF_CALENDAR = ("9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59")
HOME = f"https://github.com/{REPO}/actions/runs/"


def _put_memory(state, records) -> None:
    data = SeenFile(records=records).model_dump_json().encode()
    tree = state.git.tree_of_files({"seen.json": data})
    state.refs[REPO][BRANCH] = state.git.put_commit(tree, [], "by hand")


def _today_record(signature: str, **update):
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return record(signature, now).model_copy(update=update)


@pytest.mark.parametrize("at", OFF_CALENDAR)
def test_a_record_off_the_calendar_is_left_out_not_a_crash(at):
    good = record("good|x=1", "2026-11-20T00:00:00Z")
    report = build([good, record("bad|x=2", at)], until=SUNDAY, weeks=2)
    assert report.failures == 1
    assert "1 store record(s) with an unreadable time left out" in report.notes


@pytest.mark.parametrize("at", OFF_CALENDAR)
def test_the_cli_reports_despite_a_record_off_the_calendar(tmp_path, at):
    store = write_store(
        tmp_path / "seen.json",
        [record("good|x=1", "2026-11-20T00:00:00Z"), record("bad|x=2", at)],
    )
    code = main(["report", "--store", str(store), "--until", "2026-11-29", "--weeks", "2"])
    assert code == 0


def test_the_scheduled_report_survives_a_record_off_the_calendar(tmp_path, gh):
    server, _ = gh
    _put_memory(server.state, [_today_record("good|x=1"), record("bad|x=2", OFF_CALENDAR[0])])
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "::error::" not in run.stdout
    assert run.summary.startswith("## RepoPilot report\n\n1 failure, 1 signature")
    assert "unreadable time left out" in run.summary


def test_the_job_summary_links_only_this_repositorys_run_pages(tmp_path, gh):
    server, _ = gh
    own = _today_record("own|x=1", run_id=555, run_url=f"{HOME}555", job_url=f"{HOME}555/job/9")
    elsewhere = [
        "https://evil.example/octo-org/octo-repo/actions/runs/556",
        "https://github.com/evil-org/octo-repo/actions/runs/557",
        "http://github.com/octo-org/octo-repo/actions/runs/558",
    ]
    hostile = [
        _today_record(f"hostile|n={n}", run_id=556 + n, run_url=url, job_url=f"{url}/job/1")
        for n, url in enumerate(elsewhere)
    ]
    _put_memory(server.state, [own, *hostile])
    env = {"GITHUB_SERVER_URL": "https://github.com"}
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"[run]({HOME}555) [job]({HOME}555/job/9)" in run.summary
    for url in elsewhere:
        assert url not in run.summary
    assert run.summary.count("[run](") == 1


def test_without_a_home_the_shape_still_decides():
    """The CLI on a local file knows no repository: an Actions run page of any host is linked
    (GitHub Enterprise Server), another page is not (tests/report/test_report_links.py)."""
    rec = record("s|x=1", "2026-11-20T00:00:00Z")
    md = render_markdown(build([rec], until=SUNDAY, weeks=2))
    assert f"[run]({rec.run_url})" in md
    md = render_markdown(build([rec], until=SUNDAY, weeks=2), home=HOME)
    assert "[run](" not in md


INVISIBLE = ["\u202e", "\u2066", "\u200b", "\u2060", "\ufeff", "\u061c"]


def test_invisible_and_bidi_characters_do_not_reach_the_report():
    title = "ok \u202egnp.exe\u202c done\u200b"
    sig = "python.x|test=tests/t\u2066est_a\u2069.py\u200d::t"
    rec = record(sig, "2026-11-20T00:00:00Z", title=title, category="other\u200b")
    rec = rec.model_copy(update={"branch": "ma\u202ein"})
    report = build([rec], until=SUNDAY, weeks=2)
    for out in (
        render_markdown(report),
        render_text(report),
        json.dumps(report.contract(), ensure_ascii=False),
    ):
        assert not any(c in out for c in INVISIBLE), out
    md = render_markdown(report)
    assert "gnp\\.exe" in md and "tests/test_a.py::t" in md


def test_a_zero_width_character_does_not_smuggle_a_mention_into_the_summary():
    """`@` then U+200B then a team: the inert form looked for `@` before a name character, so
    the mention went through as text with the zero-width character in it."""
    rec = record("s|x=1", "2026-11-20T00:00:00Z", title="ping @\u200bocto-org/maintainers now")
    md = render_markdown(build([rec], until=SUNDAY, weeks=2))
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert "@" not in row and "\uff20octo\\-org/maintainers" in row.replace("\\/", "/")
