"""`repopilot learn`'s engine (DESIGN.md Contract 6): generalisation, validation and refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.learner import LearnRefused, LearnRequest, learn, to_yaml
from repopilot.engine.learn.tokens import pieces, regex_of
from repopilot.engine.library.layers import layered
from repopilot.engine.library.loader import check_examples, load_library
from repopilot.logs.reader import open_logs

pytestmark = pytest.mark.unit

# A made-up runner's output: no built-in pattern knows it.
HEAD = ["$ zork-runner --all", "zork-runner 4.2.1 starting", "loading suite from ./suites"]


def _log(tmp_path: Path, name: str, body: list[str], failed: bool = True) -> Path:
    tail = ["zork-runner: 1 failed", "Process exited with code 1"] if failed else ["all good"]
    path = tmp_path / name
    path.write_text("\n".join(HEAD + body + tail) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def library():
    return load_library()


def _line_of(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(text) + 1


def test_generalises_to_another_test_failing_the_same_way(tmp_path, library):
    a = _log(tmp_path, "a.log", [
        "ZORK ok suites/math/add_spec.zk (12 ms)",
        "ZORK broke suites/math/sub_spec.zk:41 expected 3 got 2 (7 ms)",
        "ZORK ok suites/math/mul_spec.zk (3 ms)",
    ])  # fmt: skip
    n = _line_of(a, "ZORK broke suites/math/sub_spec.zk:41 expected 3 got 2 (7 ms)")
    got = learn(LearnRequest(str(a), n, "test_failure"), library)
    assert got.data["patterns"][0]["source"] == f"learned from a.log:{n}"
    assert check_examples(got.pattern) == []
    # another run, another test, other numbers, the failure after passing lines of the same shape
    b = _log(tmp_path, "b.log", [
        "ZORK ok suites/io/read_spec.zk (5 ms)",
        "ZORK ok suites/io/seek_spec.zk (1 ms)",
        "ZORK broke suites/io/write_spec.zk:7 expected 'x' got 'y' (19 ms)",
    ])  # fmt: skip
    v = Classifier(layered(library, [got.pattern])).classify(open_logs(str(b))[0], True)
    assert v.pattern_id == got.id
    assert v.category == "test_failure"
    assert v.evidence[0].line == _line_of(
        b, "ZORK broke suites/io/write_spec.zk:7 expected 'x' got 'y' (19 ms)"
    )
    # it never takes a passing line, in either log
    for path in (a, b):
        for line in path.read_text().splitlines():
            if line.startswith("ZORK ok"):
                assert not got.pattern.regexes[0].search(line)


def test_whole_line_when_its_start_is_not_alone(tmp_path, library):
    """Two lines start alike: the learned pattern keeps what tells the failure apart."""
    a = _log(tmp_path, "a.log", [
        "widget check suites/a_spec.zk passed in 3 ms",
        "widget check suites/b_spec.zk exploded in 9 ms",
    ])  # fmt: skip
    got = learn(LearnRequest(str(a), 5, "test_failure"), library)
    regex = got.pattern.exprs[0]
    assert "exploded" in regex
    assert not got.pattern.regexes[0].search("widget check suites/a_spec.zk passed in 3 ms")
    assert got.own_hits == (5,)


def test_base_log_lines_are_never_taken(tmp_path, library):
    line = "flaky-probe timeout on worker 12 after 300 s"
    a = _log(tmp_path, "a.log", [line])
    base = _log(tmp_path, "base.log", ["flaky-probe timeout on worker 3 after 30 s"], failed=False)
    got = learn(LearnRequest(str(a), 4, "network"), library)  # learnable without the base log
    assert got.pattern.regexes[0].search(line)
    # issue 28: a base line of the same shape specialises the pattern (values kept literal) ...
    got = learn(LearnRequest(str(a), 4, "network", base_logs=(str(base),)), library)
    assert got.pattern.regexes[0].search(line)
    assert not got.pattern.regexes[0].search("flaky-probe timeout on worker 3 after 30 s")
    # ... and the very line in the passing log is a refusal
    same = _log(tmp_path, "same.log", [line], failed=False)
    with pytest.raises(LearnRefused, match="base log"):
        learn(LearnRequest(str(a), 4, "network", base_logs=(str(same),)), library)


def test_secrets_never_reach_the_pattern(tmp_path, library):
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    a = _log(tmp_path, "a.log", [f"deploy-gate refused token {token} for suites/x"])
    got = learn(LearnRequest(str(a), 4, "permission_secret"), library)
    text = to_yaml(got)
    assert token not in text and "ghp_" not in text
    assert "[REDACTED:github-token]" in text  # the example holds the redacted line
    assert got.pattern.regexes[0].search(a.read_text().splitlines()[3])


@pytest.mark.parametrize(
    ("body", "line", "why"),
    [
        ([""], 4, "empty"),
        (["tests/a.py::test_b PASSED"], 4, "passing test"),
        (["##[error]Process completed with exit code 1."], 4, "exit line"),
        (["x"], 99, "no line 99"),
    ],
)
def test_refusals_say_why(tmp_path, library, body, line, why):
    a = _log(tmp_path, "a.log", body)
    with pytest.raises(LearnRefused, match=why):
        learn(LearnRequest(str(a), line, "other"), library)


def test_refuses_when_every_candidate_matches_a_library_no_match_example(tmp_path, library):
    # A line the library's examples say is not a failure of that shape
    from repopilot.engine.verdict.passing import is_passing_test

    no_match = next(
        ex
        for p in library
        for ex in p.spec.examples.no_match
        if len(ex) > 30 and " " in ex and not is_passing_test(ex) and not ex[:1].isspace()
    )
    a = _log(tmp_path, "a.log", [no_match])
    with pytest.raises(LearnRefused, match="no safe pattern"):
        learn(LearnRequest(str(a), 4, "other"), library)


@pytest.mark.parametrize(
    ("line", "other"),
    [
        ("--- FAIL: TestAlpha (0.01s)", "--- FAIL: TestBetaGamma (12.50s)"),
        ("src/a/b.rs:12:5: zerror[E0308]: mismatched types", "lib/c.rs:1:9: zerror[E0277]: mismatched types"),
        ("Error: Cannot find module 'left-pad' from 'x.js'", "Error: Cannot find module '@a/b' from 'y/z.js'"),
        ("commit 3f2a1c9d8e0b failed verification", "commit 99aa0b1c2d3e failed verification"),
    ],
)  # fmt: skip
def test_volatile_parts_become_classes(line, other):
    import re

    ps = pieces(line)
    regex = regex_of(ps, False, True)
    assert re.search(regex, line) and re.search(regex, other)
