"""Issue 28's figures of `repopilot eval logchunks --learn` on a made-up LogChunks corpus: learn
success with each refusal and its reason, recurring failures, later builds, wrong-line decisions."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.engine.library.loader import load_library
from repopilot.engine.measure import learn_eval as le
from repopilot.engine.measure import learn_table as lt
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

HEADER = ["log", "language", "repo", "build_id", "keywords", "chunk_start_line",
          "chunk_end_line", "chunk"]  # fmt: skip


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    """`o@r`: four builds of a made-up checker. Build 12 fails as build 11 did (other numbers:
    a recurring failure); build 14 too but in another module (not the same line once normalised,
    so not counted as recurring, yet learned: the word after `module` is a name); build 13's
    labelled chunk is only numbers (nothing to learn: a refusal)."""
    builds = [
        (11, ["QQ-CHECK module alpha diverged at offset 21 (budget 3 ms)"]),
        (12, ["QQ-CHECK module alpha diverged at offset 119 (budget 40 ms)"]),
        (13, ["4711 0x3f2a1c9d8e 12.5"]),
        (14, ["QQ-CHECK module gamma diverged at offset 7 (budget 1 ms)"]),
    ]
    logs = tmp_path / "logs"
    with (tmp_path / "chunks.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        for build, cause in builds:
            lines = ["$ ./qq-check all", "QQ-CHECK module setup-ok verified in 3 ms", *cause,
                     "The command \"./qq-check all\" exited with 1."]  # fmt: skip
            log = f"X/o@r/failed/{build}.log"
            (logs / log).parent.mkdir(parents=True, exist_ok=True)
            (logs / log).write_text("\n".join(lines) + "\n")
            w.writerow([log, "X", "o@r", build, "", 3, 3, cause[0]])
    return tmp_path, tmp_path / "chunks.csv"


def test_the_figures_per_repository(tmp_path):
    directory, chunks = _corpus(tmp_path)
    [f] = le.evaluate(le.logchunks(directory, chunks), load_library())
    assert (f.logs, f.later) == (4, 3)
    assert (f.learn_tried, f.learned, f.widened, f.patterns) == (4, 3, 2, 1)
    assert (f.recurring, f.recurring_base, f.recurring_learn) == (1, 0, 1)  # build 12
    assert f.found_learn == f.found_base + 2  # builds 12 and 14
    assert (f.fired, f.false_hits) == (2, 0)
    assert len(f.refusals) == 1 and "13.log:3" in f.refusals[0]
    assert lt.reason(f.refusals[0]) == "the line has no fixed text, only values"


def test_the_eval_command_prints_the_figures_and_the_refusals(tmp_path):
    directory, chunks = _corpus(tmp_path)
    run = [sys.executable, "-m", "repopilot", "eval", "logchunks", str(directory), str(chunks),
           "--learn"]  # fmt: skip
    proc = subprocess.run(run, capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "recurring failures: 1 of 3 later builds" in out
    assert "normalised by engine/verdict/baseline.normalise" in out  # the definition, said
    assert "learn succeeds: 3 of 4 attempts (75.0%), 2 of them widening" in out
    assert "learned patterns decided 2 later builds, 0 on a line outside" in out
    assert "1 x the line has no fixed text, only values" in out
    assert "o@r: " in out and "13.log:3" in out
    proc = subprocess.run([*run, "--format", "json"], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=300)  # fmt: skip
    data = json.loads(proc.stdout)
    assert data["total"]["recurring_learn_rate"] == 1.0
    assert data["total"]["learn_rate"] == 0.75 and data["total"]["wrong_line_rate"] == 0.0
    assert data["per_repository"][0]["repo"] == "o@r"
    assert "baseline.normalise" in data["same_failure"]
