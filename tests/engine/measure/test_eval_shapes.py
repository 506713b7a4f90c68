"""`repopilot eval`'s per-shape table (engine/measure/shapes.py, commands/eval_tables.py).

The cause-line kind is read from Verdict records built here; the log format from hand-written
logs (tests/fixtures/eval_shapes/gha, see its README). With a scripted Classify (verdicts chosen
per log) the per-shape figures are exact; with the real engine every log lands in one shape that
agrees with its verdict.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from repopilot.commands.eval_tables import per_shape, shape_tables
from repopilot.engine.measure.evaluate import evaluate_gha, evaluate_logchunks
from repopilot.engine.measure.shapes import (
    BASE,
    CAUSES,
    LOG_FORMATS,
    cause_of,
    log_format,
    shape,
)
from repopilot.engine.verdict.step_prior import SAYS
from repopilot.records import BASELINE_NOTE, Evidence, Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GHA = FIXTURES / "eval_shapes" / "gha"
LOGS = GHA / "logs"


def _v(**kw) -> Verdict:
    base = {"source": "x.log", "category": "test_failure", "evidence": (Evidence(3, "boom"),)}
    return Verdict(**{**base, **kw})


@pytest.mark.parametrize(
    ("verdict", "kind"),
    [
        (None, "error"),
        (_v(category="no_failure", evidence=()), "no-failure"),
        (_v(decided_by="pattern", pattern_id="p"), "pattern"),
        (_v(decided_by="pattern", assertion_first=True), "pattern+assertion"),
        (
            _v(decided_by="pattern", category="other", title=f"x ({SAYS}: make)"),
            "pattern+step-prior",
        ),
        (_v(decided_by="llm"), "llm"),
        (_v(category="unknown", title="Unrecognized failure in Run x"), "fallback"),
        (
            _v(category="compile_error", title=f"U (looks like x, {SAYS}: cc)"),
            "fallback+step-prior",
        ),
        (
            _v(
                category="unknown",
                step="Run ./check.sh",
                step_lines=(5, 12),
                evidence=(Evidence(11, "it diverged"), Evidence(5, "Run ./check.sh")),
            ),
            "step-end",
        ),
        (
            # the header's line but not its text: the fallback's pick, not the step's end
            _v(category="unknown", step="Run x", step_lines=(5, 9), evidence=(Evidence(5, "E"),)),
            "fallback",
        ),
        (_v(decided_by="pattern", hint=f"h {BASELINE_NOTE}"), "pattern" + BASE),
        (_v(category="no_failure", hint=BASELINE_NOTE), "no-failure"),
    ],
)
def test_cause_of(verdict, kind):
    assert cause_of(verdict) == kind


def test_log_format_of_each_written_shape():
    assert log_format(LOGS / "gha-pytest.log") == "gha"
    assert log_format(LOGS / "ghcli-cargo.log") == "gh-cli"
    assert log_format(LOGS / "plain-make.log") == "plain"
    assert log_format(LOGS / "gojson.log") == "go-test-json"


def test_log_format_edges(tmp_path: Path):
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert log_format(empty) == "unreadable"
    assert log_format(tmp_path / "missing.log") == "unreadable"
    # a gh file gzipped: its jobs are split (the reader's view), test2json read from the file
    events = (LOGS / "gojson.log").read_text().splitlines()
    gh = "".join(f"test\tRun go test\t{ln}\n" for ln in events)
    zipped = tmp_path / "gh.log.gz"
    zipped.write_bytes(gzip.compress(gh.encode()))
    assert log_format(zipped) == "go-test-json"
    (tmp_path / "gh.log").write_text(gh.replace('"Action"', '"Verb"'))
    assert log_format(tmp_path / "gh.log") == "gh-cli"
    # two event lines are a mention (a JSON example in a test's output), not the format
    few = "\n".join(events[:4] + [ln for ln in events if '"Action"' in ln][:2]) + "\n"
    (tmp_path / "few.log").write_text(few)
    assert log_format(tmp_path / "few.log") == "gha"


def _scripted(path: Path) -> list[Verdict]:
    """Verdicts chosen per log: every cause kind the table groups, known right or wrong."""
    stem = path.stem
    if stem.startswith("pass-") or stem.endswith("-pass"):
        return [_v(category="no_failure", evidence=())]
    table = {
        "gha-pytest": _v(decided_by="pattern", evidence=(Evidence(15, "E"), Evidence(20, "F"))),
        "ghcli-cargo": _v(
            category="compile_error", decided_by="pattern", evidence=(Evidence(6, "e"),)
        ),
        "plain-make": _v(
            category="compile_error", title=f"U ({SAYS}: make)", evidence=(Evidence(7, "e"),)
        ),
        "gojson": _v(
            decided_by="pattern",
            assertion_first=True,
            evidence=(Evidence(1, "m"), Evidence(12, "t")),
        ),
        "gha-odd": _v(category="unknown", evidence=(Evidence(9, "x"),)),
    }
    if stem not in table:
        raise RuntimeError("no job found")  # gha-probe: the log could not be classified
    return [table[stem]]


def test_per_shape_figures_are_exact():
    report = evaluate_gha(_scripted, GHA, GHA / "labels.csv")
    data = per_shape(report)
    assert data["shapes"] == {
        "gh-cli / pattern": {
            "logs": 1,
            "accuracy": 1.0,
            "key_line": 1.0,
            "key_line_contract": 1.0,
            "decided": 1.0,
        },
        "gha / error": {
            "logs": 1,
            "accuracy": 0.0,
            "key_line": 0.0,
            "key_line_contract": 0.0,
            "decided": 0.0,
        },
        "gha / fallback": {
            "logs": 1,
            "accuracy": 0.0,
            "key_line": 0.0,
            "key_line_contract": 0.0,
            "decided": 0.0,
        },
        "gha / no-failure": {"logs": 0, "passing_logs": 1, "false_positives": 0},
        "gha / pattern": {  # the FAILED line is second and the first is no assertion: a miss
            "logs": 1,
            "accuracy": 1.0,
            "key_line": 0.0,
            "key_line_contract": 0.0,
            "decided": 1.0,
        },
        "go-test-json / pattern+assertion": {
            "logs": 1,
            "accuracy": 1.0,
            "key_line": 0.0,
            "key_line_contract": 1.0,
            "decided": 1.0,
        },
        "plain / fallback+step-prior": {
            "logs": 1,
            "accuracy": 1.0,
            "key_line": 1.0,
            "key_line_contract": 1.0,
            "decided": 0.0,
        },
        "plain / no-failure": {"logs": 0, "passing_logs": 1, "false_positives": 0},
    }
    assert data["log_formats"]["gha"] == {
        "logs": 3,
        "accuracy": 0.3333,
        "key_line": 0.0,
        "key_line_contract": 0.0,
        "decided": 0.3333,
        "passing_logs": 1,
        "false_positives": 0,
    }
    assert {k: v["logs"] for k, v in data["causes"].items()} == {
        "error": 1,
        "fallback": 1,
        "fallback+step-prior": 1,
        "no-failure": 0,
        "pattern": 2,
        "pattern+assertion": 1,
    }
    text = "\n".join(shape_tables(report, data))
    assert "per shape (log format / cause line):" in text
    assert "  plain / fallback+step-prior          1            100.0%            100.0%" in text
    assert "  gha / no-failure                     0                 -" in text
    assert text.count("1/0") == 4  # two shapes, two log formats; the causes: 2/0


def test_real_engine_puts_each_log_in_the_shape_its_verdict_says(classifier):
    report = evaluate_gha(classifier.classify_path, GHA, GHA / "labels.csv")
    formats = {o.id: o.log_format for o in report.outcomes}
    assert formats == {
        "gha-pytest": "gha",
        "ghcli-cargo": "gh-cli",
        "plain-make": "plain",
        "gojson": "go-test-json",
        "gha-odd": "gha",
        "gha-probe": "gha",
    }
    for o in report.outcomes:
        (v,) = classifier.classify_path(GHA / "logs" / f"{o.id}.log")
        assert o.cause == cause_of(v) and o.cause in CAUSES, o.id
    # nothing in gha-odd.log is a known tool's error: never a pattern's line
    odd = next(o for o in report.outcomes if o.id == "gha-odd")
    assert odd.cause in ("fallback", "fallback+step-prior", "step-end")
    data = per_shape(report)
    assert sum(v["logs"] for v in data["shapes"].values()) == 6
    assert sum(v.get("passing_logs", 0) for v in data["shapes"].values()) == 2
    assert set(data["log_formats"]) <= set(LOG_FORMATS)
    assert data["shapes"].keys() == {shape(o.log_format, o.cause) for o in report.outcomes} | {
        shape(o.log_format, o.cause) for o in report.negatives
    }


def test_logchunks_has_the_per_shape_table(tmp_path: Path, capsys):
    from repopilot.cli import main

    chunks = FIXTURES / "eval" / "logchunks"
    assert (
        main(["eval", "logchunks", str(chunks), str(chunks / "chunks.csv"), "--format", "json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    rows = data["per_shape"]["log_formats"]
    assert set(rows) == {"plain"} and rows["plain"]["logs"] == data["logs"]
    assert set(rows["plain"]) == {"logs", "precision_at_1", "any_inside", "decided"}
    report = evaluate_logchunks(_scripted_chunks, chunks, chunks / "chunks.csv")
    assert {o.cause for o in report.outcomes} == {"fallback"}


def _scripted_chunks(path: Path) -> list[Verdict]:
    return [_v(category="unknown")]
