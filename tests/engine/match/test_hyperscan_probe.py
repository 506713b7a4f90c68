"""The Hyperscan pass's self-check (engine/match/hyperscan_probe.py, hyperscan_pass._missed) and its contract.

Vectorscan 5.4.12, which the `hyperscan` 0.9.1 wheel bundles, misses the matches of `q[0-9]+ab`
and of `q[0-9]+ab` + a 16-byte literal compiled together where the repeat takes one digit: the
shape that lost `file.py:4: teh ==> the` lines (cilint.spelling.codespell) on the corpus.
The probes take every repeat at its minimum count, so the check sees that shape where the
patterns' own examples (two-digit line numbers) did not.
"""

from __future__ import annotations

import re

import pytest

from repopilot.engine.library.loader import load_library
from repopilot.engine.match import hyperscan_pass, routes
from repopilot.engine.match.hyperscan_probe import probes
from repopilot.engine.match.scan_result import GENERIC, SIGNALS
from tests.engine_support import LOGS

hs = pytest.importorskip("hyperscan", reason="hyperscan is not installed: no Hyperscan pass")
pytestmark = pytest.mark.unit

TAIL = b"[^\\n]*\\n"
SHORT = rb"q[0-9]+ab"
LONG = rb"q[0-9]+abbcdefghijklmnopq"  # the same prefix, then a 16-byte literal


def test_probes_take_each_repeat_at_its_minimum_and_one_more():
    assert probes(SHORT, False) == [b"q0ab", b"q00ab"]
    assert probes(rb"[^ :\n]+:[\d\x80-\xff]+: x", False) == [b"a:0: x", b"aa:00: x"]


def test_probes_cover_each_alternative_and_follow_the_case_flag():
    got = probes(rb"\x3a(?:DocTestFailure|UnexpectedException)(?:\x20)?", False)
    assert got == [b":DocTestFailure", b":UnexpectedException", b":DocTestFailure "] + [
        b":UnexpectedException "
    ]
    assert probes(rb"(?i:ERROR)\x3a", False) == [b"ERROR:"]
    assert all(re.search(rb"(?i)fatal", p) for p in probes(rb"FATAL", True))


def test_anchored_probes_are_lines_of_their_own():
    # (a probe may start with `^`: it holds where it starts a line)
    assert probes(rb"^(?:[\d])+\x29\x20[A-Za-z_](?:[\w\x5c])*\x3a\x3a[\w]+", False) == [
        b"0) a::a",
        b"00) aa::aa",
    ]
    assert probes(rb"^x$", False) == [b"x"]


def test_probes_skip_what_raw_forms_never_hold():
    assert probes(rb"a(?=b)", False) == []  # an assertion: raw forms drop them
    assert probes(rb"[^\x00-\xff]", False) == []  # a class no byte matches
    assert probes(rb"(", False) == []  # not a pattern


def test_every_library_expression_has_a_probe():
    patterns = load_library()
    spec = hyperscan_pass._spec(hs, patterns, routes.routes(patterns), SIGNALS, GENERIC, set())
    bare = [
        patterns[spec.owner[i]].id
        for i, expr in enumerate(spec.exprs[: spec.generic0])
        if spec.owner[i] >= 0 and not probes(expr[: -len(TAIL)], False)
    ]
    assert bare == []


def test_the_check_routes_what_this_hyperscan_misses():
    exprs, flags = [SHORT + TAIL, LONG + TAIL], [hs.HS_FLAG_MULTILINE] * 2
    spec = hyperscan_pass._Spec(exprs, flags, [0, 1], 2, 2)
    db = hyperscan_pass._compile(hs, spec)
    got: set[int] = set()
    db.scan(b"x" * 30 + b"aq4ab\n", match_event_handler=lambda i, *_: got.add(i))
    if 0 in got:
        pytest.skip(f"this Hyperscan ({db.info().decode()}) reports the match: no bug to catch")
    # a one-digit match of either is missed (`q0abbcdefghijklmnopq` is reported for neither)
    assert hyperscan_pass._missed(hs, db, spec, [], {}) == {0, 1}


def _reference(spec, data: bytes) -> tuple[dict[int, set[int] | None], list[int]]:
    """HSFinder.find's answer, one line and one expression at a time with `re`."""
    ci = hs.HS_FLAG_CASELESS
    regexes = [
        re.compile(e[: -len(TAIL)], re.IGNORECASE if f & ci else 0)
        for e, f in zip(spec.exprs, spec.flags, strict=True)
    ]
    lines: dict[int, set[int] | None] = {}
    gens: list[int] = []
    start = 0
    for line in data.splitlines(keepends=True):
        hit = [i for i, r in enumerate(regexes) if r.search(line)]
        if any(spec.generic0 <= i < spec.weird for i in hit):
            gens.append(start)
        att = [i for i in hit if not spec.generic0 <= i < spec.weird]
        if spec.weird in att:
            lines[start] = None
        elif att:
            lines[start] = {spec.owner[i] for i in att if spec.owner[i] >= 0}
        start += len(line)
    return lines, gens


def test_find_answers_as_each_expression_alone_would():
    patterns = load_library()
    finder = hyperscan_pass.build(patterns, routes.routes(patterns), SIGNALS, GENERIC)
    assert finder is not None
    spec = finder._spec
    # fixture log lines, and every probe with a line number of one digit in front of it
    texts = [
        line
        for log in sorted(LOGS.glob("*.log"))[:6]
        for line in log.read_bytes().splitlines()[:60]
    ]
    texts += [
        b"src/a.py:4: " + p
        for i, e in enumerate(spec.exprs[: spec.generic0])
        if i % 3 == 0
        for p in probes(e[: -len(TAIL)], False)[:1]
    ]
    data = b"\n".join(texts) + b"\n"
    assert finder.find(data) == _reference(spec, data)
