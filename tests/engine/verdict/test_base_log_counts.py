"""The base log counts (issue 27 item 4): with a passing log of the same job, a line the green log
also prints is never evidence[0] while a new candidate exists, and old candidates come after the
new ones, on every path that puts a line first: a wrapper's specific line and a script's own
`##[error]` (pattern_verdict._lead), the unknown verdict, the candidates after evidence[0]. The
pairs are tests/fixtures/base_log_pairs/ (each failing log is its green log plus an injected
failure, see its README). The base log is read as the Action reads the last green run's log
(`from_jobs`: the API says it passed)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.baseline import Baseline, from_jobs
from repopilot.logs.reader import open_logs
from repopilot.records import Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

PAIRS = FIXTURES / "base_log_pairs"


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def green(name: str) -> Baseline:
    path = PAIRS / f"{name}.pass.log"
    return from_jobs(str(path), open_logs(str(path)))


def classify(engine: Classifier, name: str, base: Baseline | None) -> Verdict:
    engine.baseline = base
    try:
        (v,) = engine.classify_path(PAIRS / f"{name}.fail.log")
    finally:
        engine.baseline = None
    return v


def key_line(name: str) -> int:
    with (PAIRS / "pairs.csv").open(encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["failed"] == f"{name}.fail.log")
    return int(row["key_line"])


def _old_after_new(v: Verdict, base: Baseline) -> bool:
    seen_old = False
    for e in v.evidence:
        if base.has(e.text):
            seen_old = True
        elif seen_old:
            return False
    return True


def test_a_wrappers_specific_line_is_not_one_the_green_log_prints(engine):
    # make's wrapper: without a base log the line right above it (docker's error on every run)
    # is its specific line; the green log prints it, so the wrapper leads and the new line follows
    base = green("make-cleanup")
    v = classify(engine, "make-cleanup", base)
    assert not base.has(v.evidence[0].text)
    assert key_line("make-cleanup") in [e.line for e in v.evidence[:3]]
    assert _old_after_new(v, base)


def test_without_the_base_log_the_same_wrapper_takes_the_old_line(engine):
    v = classify(engine, "make-cleanup", None)
    assert v.evidence[0].text.startswith("Error response from daemon: No such container")


def test_a_scripts_error_annotation_the_green_log_prints_does_not_lead(engine):
    base = green("make-annotation")
    without = classify(engine, "make-annotation", None)
    assert without.evidence[0].text.startswith("##[error]docs/guide.md:12:")  # the old lead
    v = classify(engine, "make-annotation", base)
    assert not base.has(v.evidence[0].text)
    assert key_line("make-annotation") in [e.line for e in v.evidence[:3]]
    assert _old_after_new(v, base)


def test_the_unknown_verdict_starts_from_the_new_lines(engine):
    base = green("release-probe")
    assert classify(engine, "release-probe", None).evidence[0].text.startswith("curl: (22)")
    v = classify(engine, "release-probe", base)
    assert v.evidence[0].line == key_line("release-probe")
    assert _old_after_new(v, base)


def test_a_test_failing_on_every_run_is_not_the_cause(engine):
    base = green("go-quarantine")
    v = classify(engine, "go-quarantine", base)
    assert v.evidence[0].line == key_line("go-quarantine")
    assert all("TestDialTimeout" not in e.text for e in v.evidence[:3])


def test_an_old_annotation_goes_after_the_new_candidates(engine):
    base = green("lint-annotation")
    v = classify(engine, "lint-annotation", base)
    assert v.evidence[0].line == key_line("lint-annotation")
    assert _old_after_new(v, base)


def test_the_pairs_file_names_existing_logs():
    with (PAIRS / "pairs.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) >= 5
    for r in rows:
        assert (PAIRS / r["failed"]).is_file() and (PAIRS / r["passing"]).is_file()
        lines = (PAIRS / r["failed"]).read_text(encoding="utf-8").splitlines()
        assert 1 <= int(r["key_line"]) <= len(lines)
        assert Path(r["failed"]).name.removesuffix(".fail.log") == r["passing"].removesuffix(
            ".pass.log"
        )
