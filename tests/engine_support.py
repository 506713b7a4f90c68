"""Shared helpers for the engine tests: run the CLI as a user does, and the fixture paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "engine"
LOGS = FIX / "logs"
PATTERNS = FIX / "patterns"


def cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd or ROOT,
        timeout=120,
    )


def write_library(tmp_path: Path, text: str, name: str = "lib.yaml") -> Path:
    """A pattern library directory in `tmp_path` holding one file, `name`, of `text`."""
    lib = tmp_path / "patterns"
    lib.mkdir(exist_ok=True)
    (lib / name).write_text(text, encoding="utf-8")
    return lib


def first_job(path: Path):
    """The first job log in `path`, opened as the CLI opens it."""
    from repopilot.logs.reader import open_logs

    return open_logs(str(path))[0]


def classify_json(*paths: str, patterns: Path = PATTERNS) -> list[dict]:
    proc = cli("classify", "--format", "json", "--no-builtin", "--patterns", str(patterns), *paths)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)["results"]
