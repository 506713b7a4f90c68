"""Issue 23: the suite a newcomer runs shows why tests were skipped, runs without pytest-xdist
too (`-p no:xdist`, a common way to debug), and `.ci/run` reuses its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration


def _pytest(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_skip_reasons_are_shown_by_default(tmp_path: Path) -> None:
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n\ndef test_x():\n    pytest.skip('needs ../shared/corpus')\n"
    )
    run = _pytest(
        "-c", str(REPO_ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "SKIPPED [1]" in run.stdout and "needs ../shared/corpus" in run.stdout


def test_the_suite_collects_without_xdist() -> None:
    # the corpus tests get an xdist_group mark (tests/conftest.py): with --strict-markers it must
    # be registered even when xdist is not loaded
    run = _pytest("-p", "no:xdist", "--collect-only", "tests/pipeline/test_pipeline_corpus.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "INTERNALERROR" not in run.stdout + run.stderr


def test_without_xdist_tests_run_in_this_process() -> None:
    # a small file of quick unit tests: what is checked is where they ran, not what they test
    run = _pytest("-p", "no:xdist", "tests/test_trace.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "passed" in run.stdout and "bringing up nodes" not in run.stdout


def test_ci_run_installs_only_when_something_changed() -> None:
    script = (REPO_ROOT / ".ci" / "run").read_text()
    # the project and the tools are installed behind a stamp of what they depend on
    assert "stamp" in script and "pyproject.toml" in script
    install_lines = [ln for ln in script.splitlines() if "pip install" in ln]
    assert install_lines and all(ln.startswith(" ") for ln in install_lines), (
        "every pip install sits inside the stamp check"
    )
