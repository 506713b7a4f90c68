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


def _pytest(
    *args: str, cwd: Path = REPO_ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | (env or {})
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


def test_the_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    """The corpus tests share one worker (tests/xdist_groups.py): with the default `-n auto`,
    which tests/conftest.py turns into `--dist loadgroup`, on pytest 9.2."""
    (tmp_path / "conftest.py").write_text(
        "import pytest\n"
        "from tests.conftest import (pytest_cmdline_main, pytest_collection_modifyitems,\n"
        "    pytest_configure_node, pytest_unconfigure, pytest_xdist_make_scheduler)\n\n\n"
        "@pytest.fixture\n"
        "def corpus_classifier():\n"
        "    return None\n"
    )
    (tmp_path / "test_groups.py").write_text(
        "import os\nfrom pathlib import Path\n\nimport pytest\n\npytestmark = pytest.mark.unit\n"
        "OUT = Path(__file__).parent\n\n\n"
        "@pytest.mark.parametrize('k', range(6))\n"
        "def test_grouped(k, corpus_classifier):\n"
        "    (OUT / f'grouped-{k}').write_text(os.environ['PYTEST_XDIST_WORKER'])\n\n\n"
        "@pytest.mark.parametrize('k', range(6))\n"
        "def test_spread(k):\n"
        "    (OUT / f'spread-{k}').write_text(os.environ['PYTEST_XDIST_WORKER'])\n"
    )
    run = _pytest(
        "-c",
        str(REPO_ROOT / "pyproject.toml"),
        "--rootdir",
        str(tmp_path),
        str(tmp_path),
        env={"PYTEST_XDIST_AUTO_NUM_WORKERS": "2"},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    grouped = {(tmp_path / f"grouped-{k}").read_text() for k in range(6)}
    every = grouped | {(tmp_path / f"spread-{k}").read_text() for k in range(6)}
    assert len(every) == 2, "the run had two workers"
    assert len(grouped) == 1, "the grouped tests ran on one worker"
