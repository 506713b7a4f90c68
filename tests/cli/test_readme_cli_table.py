"""README's CLI table against the parsers: every `--flag` a row names exists on that command,
and the everyday commands' rows name every flag they take (a newcomer reads the table, not
`--help`)."""

from __future__ import annotations

import argparse
import re

import pytest

from repopilot.cli import COMMANDS, build_parser
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

# Rows that must list every flag; the others (eval, calibrate, trace, import-matcher) summarise.
COMPLETE = {"classify", "triage", "context", "learn", "report"}
_ROW = re.compile(r"^\| (`repopilot .*?) \| ", re.M)
_CALL = re.compile(r"`(repopilot [^`]*)`")
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _subparser(p: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser | None:
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found: argparse.ArgumentParser = action.choices[name]
            return found
    return None


def _flags(p: argparse.ArgumentParser) -> set[str]:
    return {o for a in p._actions for o in a.option_strings if o.startswith("--")} - {"--help"}


def _calls() -> list[tuple[list[str], set[str]]]:
    """(command words, flags) of each `repopilot ...` call in the table's first column."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for cell in _ROW.findall(text):
        for call in _CALL.findall(cell):
            words = [w for w in call.split()[1:] if re.fullmatch(r"[a-z][a-z-]*", w)]
            out.append((words, set(_FLAG.findall(call))))
    return out


def _resolve(words: list[str]) -> tuple[str, argparse.ArgumentParser]:
    assert words and words[0] in COMMANDS, words
    p = _subparser(build_parser(words[0]), words[0])
    assert p is not None, words
    name = words[0]
    for w in words[1:]:
        nested = _subparser(p, w)
        if nested is None:
            break
        p, name = nested, f"{name} {w}"
    return name, p


def test_the_table_names_commands():
    names = {_resolve(words)[0] for words, _ in _calls()}
    assert COMPLETE <= names
    assert {"patterns test", "patterns list", "eval gha", "trace replay"} <= names


@pytest.mark.parametrize("call", _calls(), ids=lambda c: " ".join(c[0]))
def test_each_row_names_only_flags_that_exist_and_all_of_an_everyday_command(call):
    words, named = call
    name, parser = _resolve(words)
    have = _flags(parser)
    assert named <= have, f"README names {sorted(named - have)} that `repopilot {name}` lacks"
    if name in COMPLETE:
        assert have <= named, f"`repopilot {name}` takes {sorted(have - named)}: not in README"
