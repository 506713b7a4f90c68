"""README's Inputs and Outputs tables against action.yml: the same names in the same order, and
where the README's default is a literal (in backticks) and action.yml has one, the same value."""

from __future__ import annotations

import re

import pytest
import yaml

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _table(heading: str) -> list[list[str]]:
    """The cells of the rows of the first table under `### heading`."""
    table = README.split(f"\n### {heading}\n", 1)[1].strip("\n").split("\n\n", 1)[0]
    return [
        [c.strip() for c in line.strip("|").split(" | ")]
        for line in table.splitlines()
        if line.startswith("| `")
    ]


def test_the_inputs_table_is_action_ymls_inputs_with_their_defaults():
    rows = _table("Inputs")
    assert [r[0].strip("`") for r in rows] == list(ACTION["inputs"])
    for name, default, _ in ((r[0].strip("`"), r[1], r[2]) for r in rows):
        literal = re.fullmatch(r"`([^`]*)`", default)
        given = str(ACTION["inputs"][name].get("default", ""))
        if literal and given:
            assert literal.group(1) == given, f"{name}: README {default}, action.yml {given!r}"


def test_the_outputs_table_is_action_ymls_outputs():
    assert [r[0].strip("`") for r in _table("Outputs")] == list(ACTION["outputs"])
