"""`repopilot report`'s window at the calendar's ends: one line and exit 2, not a traceback."""

from __future__ import annotations

import pytest

from repopilot.cli import main
from tests.report.seen_data import sample, write_store

pytestmark = pytest.mark.unit


@pytest.fixture(autouse=True)
def _no_runner(monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.mark.parametrize(
    "window",
    [
        ["--weeks", "100000000"],
        ["--until", "0001-01-03", "--weeks", "2"],
        ["--until", "9999-12-31"],
    ],
)
def test_a_window_off_the_calendar_is_one_line(tmp_path, capsys, window):
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), *window]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "weeks" in err


def test_a_window_of_ten_years_still_reports(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), "--until", "2026-11-29", "--weeks", "520"]) == 0
    assert capsys.readouterr().out.startswith("RepoPilot report: 7 failures")
