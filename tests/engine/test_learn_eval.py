"""`repopilot eval --learn` (engine/measure/learn_eval.py) on a small made-up LogChunks corpus."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.engine.library.loader import load_library
from repopilot.engine.measure import learn_eval as le
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    """Repository `o@r`: three builds failing the same made-up way (other module, other numbers),
    one passing line of the same runner before each; `o@solo`: one build (no later logs)."""
    rows = []
    for build, mod, n in ((101, "alpha", 3), (102, "beta", 17), (103, "gamma", 250)):
        lines = [
            "$ ./qq-check all",
            f"QQ-CHECK module {mod}-ok verified in {n} ms",
            f"QQ-CHECK module {mod} diverged at offset {n * 7} (budget {n} ms)",
            "The command exited with 1.",
        ]
        rows.append((f"X/o@r/failed/{build}.log", "o@r", build, 3, 3, lines))
    rows.append(("X/o@solo/failed/5.log", "o@solo", 5, 1, 1, ["QQ-CHECK module z diverged"]))
    logs = tmp_path / "logs"
    with (tmp_path / "chunks.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["log", "language", "repo", "build_id", "keywords", "chunk_start_line",
                    "chunk_end_line", "chunk"])  # fmt: skip
        for log, repo, build, lo, hi, lines in rows:
            (logs / log).parent.mkdir(parents=True, exist_ok=True)
            (logs / log).write_text("\n".join(lines) + "\n")
            w.writerow([log, "X", repo, build, "", lo, hi, lines[lo - 1]])
    return tmp_path, tmp_path / "chunks.csv"


def test_learning_finds_the_later_failures(tmp_path):
    directory, chunks = _corpus(tmp_path)
    figures = le.evaluate(le.logchunks(directory, chunks), load_library())
    assert [f.repo for f in figures] == ["o@r"]  # one log: nothing later to measure
    f = figures[0]
    assert (f.logs, f.later) == (3, 2)
    assert f.found_learn == 2 and f.found_base < 2
    # issue 28: learned from every build (not only where the cause was missed), the later
    # examples widening the first pattern
    assert (f.learn_tried, f.learned) == (3, 3)
    assert (f.fired, f.false_hits) == (2, 0)


def test_eval_learn_command_json(tmp_path):
    directory, chunks = _corpus(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "repopilot", "eval", "logchunks", str(directory), str(chunks),
         "--learn", "--format", "json"],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["total"]["found_learn_rate"] == 1.0
    assert data["total"]["learn_rate"] == 1.0
