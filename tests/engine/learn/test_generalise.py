"""Issue 28: learning that generalises from one example and decides the second occurrence.

A made-up runner (`zork-runner`): no built-in pattern knows its lines, so what decides them is
what was learned.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.learner import LearnRefused, LearnRequest, learn
from repopilot.engine.library.layers import layered, learned_from
from repopilot.engine.library.loader import Pattern, check_examples, load_library
from repopilot.logs.reader import open_logs
from repopilot.records import Verdict

pytestmark = pytest.mark.unit

HEAD = ["$ zork-runner --all", "zork-runner 4.2.1 starting", "loading suite from ./suites"]
TAIL = ["zork-runner: 1 failed", "Process exited with code 1"]


@pytest.fixture(scope="module")
def library() -> list[Pattern]:
    return load_library()


def _log(tmp_path: Path, name: str, body: list[str], tail: list[str] = TAIL) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(HEAD + body + tail) + "\n", encoding="utf-8")
    return path


def _n(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(text) + 1


def _verdict(patterns: list[Pattern], path: Path) -> Verdict:
    return Classifier(patterns).classify(open_logs(str(path))[0], assume_failed=True)


def test_one_example_decides_a_second_occurrence_with_other_values(tmp_path, library):
    first = (
        "ZORK crash in tests/unit/test_parse.py::test_dates[utc] after 1.25s (seed 0x3f2a1c9d8e)"
    )
    a = _log(tmp_path, "a.log", ["ZORK pass tests/unit/test_io.py::test_read 0.1s", first])
    got = learn(LearnRequest(str(a), _n(a, first), "test_failure", hint="rerun {test}"), library)
    assert check_examples(got.pattern) == []
    assert got.data["patterns"][0]["source"] == f"learned from a.log:{_n(a, first)}"
    regex = got.pattern.exprs[0]
    assert regex.startswith("^ZORK\\s+crash\\s+in\\s+") and regex.endswith("$")
    assert "(?P<test>" in regex  # what varies is a named capture
    # the same failure in another build: another test, path, duration, seed, and at another line
    again = "ZORK crash in tests/api/test_http.py::test_get[ipv6] after 310ms (seed 0x99aa0b1c2d)"
    b = _log(tmp_path, "b.log", ["ZORK pass tests/a.py::test_x 2s", "ZORK pass b.py::t 1s", again])
    v = _verdict(layered(library, [got.pattern]), b)
    assert v.pattern_id == got.id and v.decided_by == "pattern"
    assert v.evidence[0].line == _n(b, again)
    assert v.category == "test_failure"
    assert v.hint == "rerun tests/api/test_http.py::test_get[ipv6]"
    assert v.learned_from == f"learned from a.log:{_n(a, first)}"
    # a passing line of the same runner is never taken
    assert not got.pattern.regexes[0].search("ZORK pass tests/a.py::test_x 2s")


def test_a_line_that_over_matches_its_own_log_is_specialised(tmp_path, library):
    """Two lines of one shape: the learned pattern keeps what tells the cause apart."""
    cause = "zork shard beta stalled at step 12 of 40"
    a = _log(tmp_path, "a.log", ["zork shard alpha-1 stalled at step 3 of 40", cause])
    got = learn(LearnRequest(str(a), _n(a, cause), "timeout_cancelled"), library)
    assert got.own_hits == (_n(a, cause),)  # it takes that line alone in its own log
    assert not got.pattern.regexes[0].search("zork shard alpha-1 stalled at step 3 of 40")
    assert got.pattern.regexes[0].search("zork shard beta stalled at step 99 of 100")


def test_a_passing_log_line_specialises_it_and_the_same_line_refuses_it(tmp_path, library):
    cause = "zork gate quota 7 exceeded by worker-3"
    a = _log(tmp_path, "a.log", [cause])
    green = _log(tmp_path, "green.log", ["zork gate quota 0 exceeded by worker-9"], ["all good"])
    got = learn(LearnRequest(str(a), _n(a, cause), "other", base_logs=(str(green),)), library)
    assert got.pattern.regexes[0].search(cause)
    assert not got.pattern.regexes[0].search("zork gate quota 0 exceeded by worker-9")
    same = _log(tmp_path, "same.log", [cause], ["all good"])
    with pytest.raises(LearnRefused, match="base log"):
        learn(LearnRequest(str(a), _n(a, cause), "other", base_logs=(str(same),)), library)


def test_two_examples_of_one_failure_merge_into_one_pattern(tmp_path, library):
    one = "zork linker lost symbol frobnicate in unit core"
    two = "zork linker lost symbol defrag in unit core"
    a = _log(tmp_path, "a.log", [one])
    b = _log(tmp_path, "b.log", [two])
    first = learn(LearnRequest(str(a), _n(a, one), "compile_error"), library)
    assert not first.pattern.regexes[0].search(two)  # one example: the word is the tool's
    repo = layered(library, [first.pattern])
    second = learn(LearnRequest(str(b), _n(b, two), "compile_error"), repo)
    assert second.widened == first.id and second.id == first.id  # the same pattern, wider
    assert second.data["patterns"][0]["source"] == "learned from a.log:4, b.log:4"
    assert check_examples(second.pattern) == []  # both lines are its examples now
    both = layered(repo, [second.pattern])
    assert [p.id for p in both if learned_from(p)] == [first.id]
    for path, line in ((a, one), (b, two)):
        v = _verdict(both, path)
        assert v.pattern_id == first.id and v.evidence[0].line == _n(path, line)
    # another failure of that tool is not merged into it
    other = "zork linker ran out of memory"
    c = _log(tmp_path, "c.log", [other])
    third = learn(LearnRequest(str(c), _n(c, other), "compile_error"), both)
    assert third.widened is None and third.id != first.id


def test_a_learned_pattern_outranks_the_builtin_one_on_a_nearby_line(tmp_path, library):
    cause = "ZORK broke suites/math/sub_spec.zk:41 expected 3 got 2 (7 ms)"
    body = [
        cause,
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'zorklib'",
    ]
    a = _log(tmp_path, "a.log", body)
    builtin = _verdict(library, a)
    assert builtin.pattern_id is not None and learned_from_id(library, builtin) is None
    assert builtin.evidence[0].line == _n(a, "ModuleNotFoundError: No module named 'zorklib'")
    got = learn(LearnRequest(str(a), _n(a, cause), "test_failure", title="zork broke"), library)
    b = _log(tmp_path, "b.log", [x.replace("41", "7").replace("sub", "div") for x in body])
    v = _verdict(layered(library, [got.pattern]), b)
    assert v.pattern_id == got.id
    assert v.evidence[0].line == _n(b, cause.replace("41", "7").replace("sub", "div"))
    assert (v.category, v.title, v.decided_by) == ("test_failure", "zork broke", "pattern")
    assert v.learned_from == f"learned from a.log:{_n(a, cause)}"
    assert builtin.learned_from is None


def learned_from_id(library: list[Pattern], v: Verdict) -> str | None:
    return next((learned_from(p) for p in library if p.id == v.pattern_id), None)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('The command "make check" exited with 2.', "exit line"),
        ("1234 5678 0xdeadbeef", "no fixed text"),
        ("OK, but incomplete, skipped, or risky tests!", "reports success"),
        ("BUILD SUCCESSFUL in 12s", "reports success"),
    ],
)
def test_what_is_still_refused_says_why(tmp_path, library, line, why):
    a = _log(tmp_path, "a.log", [line])
    with pytest.raises(LearnRefused, match=why):
        learn(LearnRequest(str(a), 4, "other"), library)


def test_a_learned_pattern_the_next_example_contradicts_is_retired(tmp_path, library):
    """A pattern learned from a line that a later log prints too, where the maintainer names
    another line as the cause: the new pattern decides only without the old one (retired)."""
    note = "zork cache warmed for worker 3"
    a = _log(tmp_path, "a.log", [note])
    old = learn(LearnRequest(str(a), _n(a, note), "other"), library)
    cause = "zork gate exploded in shard 2"
    b = _log(tmp_path, "b.log", ["zork cache warmed for worker 5", cause])
    repo = layered(library, [old.pattern])
    assert _verdict(repo, b).pattern_id == old.id  # the old pattern takes the wrong line
    new = learn(LearnRequest(str(b), _n(b, cause), "other"), repo)
    assert new.retired == (old.id,) and new.widened is None
    v = _verdict(layered(library, [new.pattern]), b)
    assert v.pattern_id == new.id and v.evidence[0].line == _n(b, cause)
