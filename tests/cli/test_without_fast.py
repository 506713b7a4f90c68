"""A plain install (no `fast` extra: neither google-re2 nor hyperscan) runs the main job and the
pattern checks, with the verdicts the set engine gives (house rule: the dependency list)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.paths import FIXTURES, REPO_ROOT
from tests.without_fast import run, run_fast

LOGS = [
    REPO_ROOT / "examples" / "pytest-failure.log",
    *sorted((FIXTURES / "engine" / "logs").iterdir()),
]


@pytest.mark.integration
def test_classify_without_the_fast_extra_gives_the_same_json() -> None:
    args = ["classify", "--format", "json", *map(str, LOGS)]
    plain, fast = run(args), run_fast(args)
    assert "re2" not in plain.stderr and "Traceback" not in plain.stderr, plain.stderr
    assert plain.returncode == fast.returncode, plain.stderr
    assert json.loads(plain.stdout) == json.loads(fast.stdout)
    assert '"decided_by"' in plain.stdout  # real verdicts, not an error object


def _no_trace_path(out: str) -> list[str]:
    return [line for line in out.splitlines() if ".runs" not in line]


@pytest.mark.integration
def test_triage_offline_without_the_fast_extra(tmp_path: Path) -> None:
    log = str(REPO_ROOT / "examples" / "pytest-failure.log")
    got = run(["triage", log], cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert "assertion" in got.stdout.lower()
    assert list((tmp_path / ".runs").glob("*.json"))  # the trace is written
    assert _no_trace_path(got.stdout) == _no_trace_path(
        run_fast(["triage", log], cwd=tmp_path).stdout
    )


@pytest.mark.integration
def test_pattern_lint_without_the_fast_extra_says_which_path_scans() -> None:
    got = run(["patterns", "lint"])
    assert got.returncode == 0, got.stderr
    assert "google-re2 is not installed" in got.stdout + got.stderr


@pytest.mark.corpus
def test_same_verdicts_without_the_fast_extra_on_the_gha_corpus(corpus: Path) -> None:
    """Every GitHub Actions log of ../shared/corpus, failed and passing: the same verdict JSON."""
    logs = sorted((corpus / "gha" / "logs").glob("*.log")) + sorted(
        p for p in (corpus / "gha" / "negatives").iterdir() if p.is_file()
    )
    assert len(logs) > 50
    args = ["classify", "--format", "json", *map(str, logs)]
    plain, fast = run(args), run_fast(args)
    assert plain.returncode == fast.returncode, plain.stderr[-2000:]
    assert json.loads(plain.stdout) == json.loads(fast.stdout)
