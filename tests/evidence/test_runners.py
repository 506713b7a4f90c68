"""Runner knowledge as data (issue 19): runners.toml, read once by repopilot/evidence/runners.py.

Every entry says where its format comes from; the runner's exit line has one predicate
(`runner_exit`) whatever the runner; each test runner's `find` is a procedure the engine has;
and the combined tables are what the engine compiles (a runner added to the file is used)."""

from __future__ import annotations

import re
import tomllib

import pytest

from repopilot.engine.library.schema import SOURCE_RE
from repopilot.engine.verdict import assertions, line_score, passing, structure
from repopilot.engine.verdict.line_score import Line
from repopilot.evidence import runners
from repopilot.evidence.runners import (
    bare_exit,
    ends_step,
    entries,
    failing_test_shapes,
    runner_exit,
)

pytestmark = pytest.mark.unit

TABLES = sorted(tomllib.loads(runners.DATA.read_text(encoding="utf-8")))


@pytest.mark.parametrize("table", TABLES)
def test_every_entry_names_its_source_and_compiles(table):
    items = failing_test_shapes() if table == "test" else entries(table)
    assert items, table
    ids = [e.id for e in items]
    assert len(ids) == len(set(ids)), f"duplicate ids in [[{table}]]"
    for e in items:
        assert SOURCE_RE.match(e.source), (table, e.id, e.source)
    for e in items:
        for rx in (e.regex,) if table != "test" else (e.test.pattern, *(p for _, p in e.shapes)):
            re.compile(rx)
    if table not in ("test", "exit"):  # exit lines are tried one by one (each has `code`)
        re.compile(runners.alternation(table))


@pytest.mark.parametrize(
    ("line", "code", "bare"),
    [
        ("##[error]Process completed with exit code 2.", 2, True),
        ("Error: Process completed with exit code 1.", 1, True),
        ("2026-03-01T10:00:01.1234567Z ##[error]Process completed with exit code 1.", None, None),
        ('The command "npm test" exited with 1.', 1, False),
        ('The command "cd ../release" exited with 0.', 0, False),
        ("Done. Your build exited with 1.", 1, True),
        ("npm ERR! code ELIFECYCLE", None, None),
        ('error MSB3073: The command "copy a b" exited with code 1.', None, None),
    ],
)
def test_one_predicate_for_the_runners_exit_line(line, code, bare):
    found = runner_exit(line)
    assert (found.code if found else None, found.bare if found else None) == (code, bare)
    assert bare_exit(line) is bool(bare)


def test_a_non_zero_exit_ends_a_step_and_a_zero_one_does_not():
    assert ends_step("##[error]Process completed with exit code 1.")
    assert ends_step("FAIL\tgithub.com/o/r/pkg\t0.01s\nexit status 1".splitlines()[1])
    assert ends_step("error Command failed with exit code 2.")
    assert not ends_step('The command "true" exited with 0.')
    assert not ends_step("Process completed with exit code 0.")


def test_the_engine_compiles_the_tables_of_the_file():
    assert line_score.WRAPPER.pattern.count("|") >= len(entries("wrapper_start"))
    assert structure._STATES_FAILURE.pattern == runners.alternation("states_failure")
    assert passing._PASSING.pattern == runners.alternation("passing")
    # exit lines and echoes score nothing in the unknown fallback; a wrapper scores less
    assert line_score.score(Line(9, 'The command "make" exited with 2.', False), 10, 10) == 0
    assert line_score.score(Line(9, "Run make test", False), 10, 10) == 0
    assert line_score.says_wrapper("npm ERR! code ELIFECYCLE")


def test_every_test_runner_finds_its_message_with_a_known_procedure():
    assert {r.find for r in failing_test_shapes()} <= set(assertions.FINDERS)
    assert [r.id for r in failing_test_shapes() if r.reads_above] == ["go", "pytest", "bun"]
    for r in failing_test_shapes():
        if r.find in ("unittest", "rspec", "jest", "go", "pytest", "next_if_message", "bun"):
            assert r.shape("message").pattern


def test_a_test_runner_from_the_file_is_used_by_assertion_for():
    lines = [
        Line(1, "  Failed Shop.Tests.CartTests.Total [12 ms]", False),
        Line(2, "  Error Message:", False),
        Line(3, "   Assert.Equal() Failure: Expected 3, Actual 2", False),
    ]
    got = assertions.assertion_for(lines[0], lines)
    assert got is not None and got.number == 3


def test_a_malformed_entry_says_which_and_why():
    with pytest.raises(runners.RunnerDataError, match=r"\[\[summary\]\] x: `regex` must be"):
        runners._checked("summary", {"id": "x", "source": "https://a.b/c", "regex": ""})
    with pytest.raises(runners.RunnerDataError, match="unknown key"):
        runners._checked("noise", {"id": "x", "source": "https://a.b/c", "regex": "a", "b": 1})
