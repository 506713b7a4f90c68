"""RepoPilot as a plain install runs it: google-re2 and hyperscan (the `fast` extra) unimportable.

`run(args)` starts `python -m repopilot ARGS` in a child whose import of either library fails as it
does where it is not installed (ModuleNotFoundError), whatever this venv holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import REPO_ROOT

BOOT = (
    "import sys\n"
    "sys.modules['re2'] = None\n"  # `import re2` now raises ModuleNotFoundError
    "sys.modules['hyperscan'] = None\n"
    "import runpy\n"
    "runpy.run_module('repopilot', run_name='__main__', alter_sys=True)\n"
)


def run(args: list[str], cwd: Path = REPO_ROOT, **kw) -> subprocess.CompletedProcess[str]:
    return _python(["-c", BOOT], args, cwd, **kw)


def run_fast(args: list[str], cwd: Path = REPO_ROOT, **kw) -> subprocess.CompletedProcess[str]:
    """The same command with whatever this venv holds (the tests' venv has the `fast` extra)."""
    return _python(["-m", "repopilot"], args, cwd, **kw)


def _python(how: list[str], args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *how, *args], cwd=cwd, capture_output=True, text=True, timeout=300, **kw
    )
