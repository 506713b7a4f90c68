"""The README's quick start shows what `repopilot classify examples/pytest-failure.log` prints:
the command prints exactly those lines first, so a newcomer can tell it worked."""

from __future__ import annotations

import re

import pytest

from repopilot.cli import main
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit


def _shown() -> list[str]:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"It prints the verdict, starting with:\n\n```text\n(.*?)\n```", text, re.S)
    assert m is not None, "README: the quick start's example output block is gone"
    return m.group(1).splitlines()


def test_the_quick_start_prints_what_the_readme_shows(capsys, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    assert main(["classify", "examples/pytest-failure.log"]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = _shown()
    assert out[: len(shown)] == shown
