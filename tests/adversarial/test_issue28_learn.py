"""Attacks on learning (issue 28, docs/CONTRACTS.md Contract 6) through the line learned from.

A learned pattern ranks above every built-in one, and the line it is learned from may be a fork's
log line: the comment offers to learn the key line of a failure no pattern knew, and a maintainer
accepts with one command. A line every failure of a tool prints (`Traceback (most recent call
last):`), or a long line whose start before the cut is one word (`Traceback aaaa...`, learned as
`^Traceback`), made a pattern that decided EVERY later failure of that tool with the category and
title it was taught: a real `ModuleNotFoundError` became "network: flaky network, ignore".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.generic import generic_lines
from repopilot.engine.learn.learner import LearnRefused, LearnRequest, learn
from repopilot.engine.library.layers import layered
from repopilot.engine.library.loader import load_library
from repopilot.logs.reader import open_logs

pytestmark = pytest.mark.unit

HEAD = ["$ zork-runner --all", "zork-runner 4.2.1 starting", "loading suite from ./suites"]
TAIL = ["##[error]Process completed with exit code 1."]
# A later, ordinary Python failure the built-in library decides on its own.
IMPORT_ERROR = [
    "Run python app.py",
    "Traceback (most recent call last):",
    '  File "/w/app.py", line 1, in <module>',
    "    import requests",
    "ModuleNotFoundError: No module named 'requests'",
    *TAIL,
]


@pytest.fixture(scope="module")
def library():
    return load_library()


def _log(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _hostile(tmp_path: Path, line: str) -> tuple[Path, int]:
    path = _log(tmp_path, "fork.log", [*HEAD, line, *TAIL])
    return path, len(HEAD) + 1


@pytest.mark.parametrize(("line", "_where"), generic_lines())
def test_a_line_every_failure_of_a_tool_prints_is_never_learned(tmp_path, library, line, _where):
    path, n = _hostile(tmp_path, line)
    with pytest.raises(LearnRefused, match="failure prints|a no_match example of"):
        learn(LearnRequest(str(path), n, "network", title="flaky network, ignore"), library)


@pytest.mark.parametrize(
    "line",
    [
        "Traceback " + "a" * 600,
        "Traceback (most recent call last): " + "A" * 600,
        "x " + "a" * 600,
        "Ex " + "b" * 600,
    ],
)
def test_a_long_line_is_not_learned_as_a_bare_prefix(tmp_path, library, line):
    path, n = _hostile(tmp_path, line)
    with pytest.raises(LearnRefused):
        learn(LearnRequest(str(path), n, "network"), library)


def test_what_a_learned_pattern_would_have_silenced_is_still_decided(tmp_path, library):
    """The specific line of the same hostile log is still learned, and it does not take a later
    ordinary Python failure: that keeps the built-in verdict."""
    path = _log(
        tmp_path,
        "fork.log",
        [*HEAD, "Traceback (most recent call last):", "ZorkError: the frobnicator broke", *TAIL],
    )
    got = learn(LearnRequest(str(path), len(HEAD) + 2, "network"), library)
    later = open_logs(str(_log(tmp_path, "later.log", IMPORT_ERROR)))[0]
    v = Classifier(layered(library, [got.pattern])).classify(later, assume_failed=True)
    assert v.category == "import_error" and v.pattern_id == "python.import.module-not-found"


def test_a_long_line_with_a_real_message_before_the_cut_still_learns(tmp_path, library):
    line = "zork: cannot resolve fixture frobnicator for suite math: " + "q" * 600
    path, n = _hostile(tmp_path, line)
    got = learn(LearnRequest(str(path), n, "test_failure"), library)
    assert got.pattern.spec.regex.startswith("^zork:")
