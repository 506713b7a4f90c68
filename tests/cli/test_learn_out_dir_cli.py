"""`repopilot learn --out DIR` keeps DIR loadable and truthful (Contract 6): learning the same
failure again (widened, or re-learned under its `--id`) leaves ONE pattern with that id wherever
it stands, and a learned pattern the new example contradicts leaves DIR, so the new one decides.
As a user runs it; the logs are written here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

HEAD = ["$ ./zork-link all", "zork-link 2.0 ready"]
TAIL = ["zork-link: giving up", "exit 1"]
LOST = "zork linker lost symbol at {} in unit core after {} passes"
SLOTS = "zork linker ran out of relocation slots in unit core"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repopilot", *args], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=300)  # fmt: skip


def _log(tmp_path: Path, name: str, *lines: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join([*HEAD, *lines, *TAIL]) + "\n", encoding="utf-8")
    return path


def _learn(log: Path, line: int, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    got = _run("learn", str(log), "--line", str(line), "--category", "compile_error",
               "--out", str(out), *more)  # fmt: skip
    assert got.returncode == 0, got.stderr
    return got


def _decided(out: Path, log: Path) -> dict:
    proc = _run("classify", "--format", "json", "--assume-failed", "--patterns", str(out), str(log))
    assert proc.returncode == 0, proc.stderr  # the directory loads
    return json.loads(proc.stdout)["results"][0]


def _ids(out: Path) -> list[str]:
    ids = []
    for f in sorted(out.glob("*.y*ml")):
        ids += [p["id"] for p in yaml.safe_load(f.read_text())["patterns"]]
    return ids


def test_two_builds_of_one_failure_make_one_pattern_that_decides_both(tmp_path):
    out = tmp_path / "patterns"
    a = _log(tmp_path, "a.log", LOST.format("0x1f2e", 12))
    b = _log(tmp_path, "b.log", LOST.format("0x77aa", 3))
    _learn(a, 3, out)
    second = _learn(b, 3, out)
    [pid] = _ids(out)
    assert "widened" in second.stderr or "wrote" in second.stderr
    for log in (a, b):
        got = _decided(out, log)
        assert got["pattern_id"] == pid and got["evidence"][0]["line"] == 3


def test_relearning_an_id_kept_in_a_shared_file_replaces_it_there(tmp_path):
    out = tmp_path / "patterns"
    a = _log(tmp_path, "a.log", LOST.format("0x1f2e", 12))
    _learn(a, 3, out, "--id", "ours.zork-lost")
    # the maintainer keeps the learned patterns together in one file, with one of their own
    [file] = out.glob("*.yaml")
    data = yaml.safe_load(file.read_text())
    mine = {**data["patterns"][0], "id": "ours.other", "regex": "^zork frobber failed$",
            "examples": {"match": ["zork frobber failed"], "no_match": ["zork frobber ok"]}}  # fmt: skip
    data["patterns"].append(mine)
    file.unlink()
    (out / "learned.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    b = _log(tmp_path, "b.log", LOST.format("0x77aa", 3))
    _learn(b, 3, out, "--id", "ours.zork-lost")
    assert sorted(p.name for p in out.iterdir()) == ["learned.yaml"]
    assert _ids(out) == ["ours.zork-lost", "ours.other"]
    assert _decided(out, b)["pattern_id"] == "ours.zork-lost"


def test_a_contradicted_learned_pattern_leaves_the_directory(tmp_path):
    out = tmp_path / "patterns"
    a = _log(tmp_path, "a.log", LOST.format("0x1f2e", 12))
    _learn(a, 3, out)
    [old] = _ids(out)
    # another build: the old pattern takes line 3, the maintainer says line 4 is the cause
    c = _log(tmp_path, "c.log", LOST.format("0x77aa", 3), SLOTS)
    got = _learn(c, 4, out)
    assert f"removed learned pattern {old}" in got.stderr
    [new] = _ids(out)
    assert new != old
    decided = _decided(out, c)
    assert decided["pattern_id"] == new and decided["evidence"][0]["line"] == 4
    assert _decided(out, a)["pattern_id"] != old
