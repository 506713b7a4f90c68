"""Issue 23: `repopilot triage` text output shows at least what `classify` shows (pattern, step,
evidence with its context block) and says why the LLM was not asked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.adoption_logs import pytest_log, unknown_log
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration


def _cli(tmp_path: Path, command: str, log: bytes, *extra: str) -> str:
    path = tmp_path / "job.log"
    path.write_bytes(log)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPOPILOT_", "OPENAI_"))}
    env.update(REPOPILOT_TRACE_DIR=str(tmp_path / "runs"), NO_COLOR="1", PYTHONPATH=str(REPO_ROOT))
    args = [sys.executable, "-m", "repopilot", command, str(path), *extra]
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _fields(text: str) -> set[str]:
    return {m[1] for ln in text.splitlines() if (m := re.match(r"^  (\w+):", ln))}


def test_triage_shows_what_classify_shows_and_more(tmp_path: Path) -> None:
    classify = _cli(tmp_path, "classify", pytest_log())
    triage = _cli(tmp_path, "triage", pytest_log(), "--repo", str(tmp_path))
    assert {"pattern", "step", "evidence", "context"} <= _fields(classify)
    assert _fields(classify) <= _fields(triage)
    [key] = [ln for ln in classify.splitlines() if ln.startswith("   > ")]
    assert key in triage.splitlines(), "the key line in a context block, marked the same way"
    assert "tests/test_core.py:430: AssertionError" in triage  # the explaining lines
    assert "escalated:  no (a pattern decided it; --escalate fixable also asks for a fix)" in triage


def test_an_unknown_failure_says_no_llm_is_configured(tmp_path: Path) -> None:
    out = _cli(tmp_path, "triage", unknown_log(), "--repo", str(tmp_path))
    assert "category:   unknown" in out
    assert "escalated:  no (no LLM configured (REPOPILOT_LLM=none)" in out
    assert "release-check: the versions differ" in out  # the context block
