"""`repopilot report` through cli.main: formats, exit statuses, warnings, the job summary."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from tests.report.seen_data import sample, trace, write_store, write_trace

pytestmark = pytest.mark.unit

WINDOW = ["--until", "2026-11-29", "--weeks", "2"]


@pytest.fixture(autouse=True)
def _no_runner(monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def test_text_report_from_a_store(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), *WINDOW]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("RepoPilot report: 7 failures, 4 signatures, on 3 PRs") and err == ""


def test_the_default_store_is_seen_json_here(tmp_path, capsys, monkeypatch):
    write_store(tmp_path / "seen.json", sample())
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--format", "json", *WINDOW]) == 0
    assert json.loads(capsys.readouterr().out)["failures"] == 7


def test_json_with_traces_and_prices(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    write_trace(tmp_path / "runs", trace("t1", "2026-11-17T10:00:00.000Z", 1_000_000, 200_000))
    argv = ["report", "--store", str(store), "--traces", str(tmp_path / "runs"), *WINDOW]
    assert main([*argv, "--format", "json", "--price-in", "2.5", "--price-out", "10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["token_source"] == "traces" and data["cost_usd"] == pytest.approx(4.5)
    assert [w["cost_usd"] for w in data["weeks"]] == [pytest.approx(4.5), 0.0]


def test_markdown_format(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), "--format", "markdown", *WINDOW]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## RepoPilot report\n") and out.count("```mermaid\n") == 3


def test_summary_appends_markdown_to_the_job_summary(tmp_path, capsys, monkeypatch):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), "--summary", *WINDOW]) == 0
    assert capsys.readouterr().out.startswith("RepoPilot report: 7 failures")  # text on stdout
    text = summary.read_text()
    assert text.startswith("earlier step\n## RepoPilot report\n") and "pie title Decided by" in text


def test_summary_outside_actions_is_one_line_and_exit_2(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    assert main(["report", "--store", str(store), "--summary"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "repopilot: --summary: GITHUB_STEP_SUMMARY is not set (it is, in a GitHub Actions job)\n"
    )


def test_an_empty_store_is_a_quiet_report_and_exit_0(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", [])
    assert main(["report", "--store", str(store), *WINDOW]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == (
        "RepoPilot report: no failures recorded from 2026-11-16 to 2026-11-29 (2 ISO weeks)"
    )
    assert err == "" and "top failure signatures" not in out


def test_a_missing_store_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["report", "--store", str(tmp_path / "nope.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(
        f"repopilot: {tmp_path / 'nope.json'}: no such file (to get it: git fetch"
    )


def test_a_corrupt_store_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "seen.json").write_text('{"version": 1, "records": [{"sig')
    assert main(["report", "--store", str(tmp_path / "seen.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "seen.json: not a RepoPilot seen-before store (top level: Invalid JSON" in err


def test_a_corrupt_trace_among_good_ones_is_one_warning(tmp_path, capsys):
    store = write_store(tmp_path / "seen.json", sample())
    runs = tmp_path / "runs"
    write_trace(runs, trace("t1", "2026-11-17T10:00:00.000Z", 100, 20))
    (runs / "t2.json").write_bytes(b"\xff\xfe not text")
    argv = ["report", "--store", str(store), "--traces", str(runs), "--format", "json", *WINDOW]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == f"repopilot: warning: skipped {runs / 't2.json'}: not UTF-8 text\n"
    assert json.loads(out)["tokens"] == 120


def test_traces_alone_without_the_default_store_are_a_tokens_report(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_trace(tmp_path / "runs", trace("t1", "2026-11-17T10:00:00.000Z", 100, 20))
    assert main(["report", "--traces", "runs", "--format", "json", *WINDOW]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["tokens"] == 120 and json.loads(out)["failures"] == 0
    assert err == "repopilot: warning: no seen.json: tokens from the traces only\n"


def test_nothing_usable_is_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "bad.json").write_text("{}")
    assert main(["report", "--traces", "runs"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("repopilot: warning: skipped runs/bad.json: not a RepoPilot trace")
    assert err[1] == "repopilot: warning: runs: no usable trace"
    assert err[2].startswith("repopilot: seen.json: no such file")
    assert len(err) == 3


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--price-in", "2.5"], "give both --price-in and --price-out"),
        (["--price-in", "-1", "--price-out", "1"], "must be USD per million tokens"),
        (["--weeks", "0"], "must be a whole number of at least 1"),
        (["--until", "last week"], "must be a date YYYY-MM-DD"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path, capsys, argv, needle):
    store = write_store(tmp_path / "seen.json", sample())
    with pytest.raises(SystemExit) as stop:  # argparse's own errors exit 2 too
        code = main(["report", "--store", str(store), *argv])
        raise SystemExit(code)
    assert stop.value.code == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--repo", "octo/repo"],
            "repopilot: --repo needs a token in GITHUB_TOKEN (e.g. GITHUB_TOKEN=$(gh auth token)), "
            "or read the file: git show origin/repopilot-memory:seen.json > seen.json\n",
        ),
        (
            ["--repo", "octo/repo", "--store", "seen.json"],
            "repopilot: give --store FILE or --repo OWNER/NAME, not both\n",
        ),
        (["--repo", "octo"], "repopilot: --repo: expected OWNER/NAME, not 'octo'\n"),
    ],
)
def test_repo_problems_are_one_line_before_any_request(capsys, monkeypatch, argv, line):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")  # nothing listens: no request made
    assert main(["report", *argv]) == 2
    assert capsys.readouterr() == ("", line)
