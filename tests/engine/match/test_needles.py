"""The pure-Python needles (engine/match/needles.py, used where google-re2 is not installed) say
what the RE2 ones say: the same needles on every line, and every line RE2's chunk scan selects."""

from __future__ import annotations

import time

import pytest
import regex

from repopilot import rx
from repopilot.engine.library.loader import load_library
from repopilot.engine.match.needles import (
    Needle,
    _LiteralScan,
    _RE2Set,
    _TextSet,
    chunk_scan,
    regex_literals,
)
from repopilot.engine.match.scan_result import _minimal
from repopilot.logs.textnorm import body, display
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit
needs_re2 = pytest.mark.skipif(not rx.available(), reason="google-re2 is not installed")


def _lines() -> list[bytes]:
    out: list[bytes] = []
    paths = [
        REPO_ROOT / "examples" / "pytest-failure.log",
        *(FIXTURES / "engine" / "logs").glob("*.log"),
    ]
    for path in paths:
        out += path.read_bytes().splitlines()
    out += [
        "  ● Test › works".encode(),
        "ÉCHEC: erreur FATALE".encode(),
        b"foo.erl:12: syntax error",
        b"\xff\xfe broken bytes error",
        "x\u2003FAIL  src/a.test.ts > b".encode(),
    ]
    return out


@needs_re2
def test_text_set_holds_the_needles_the_re2_set_holds() -> None:
    names: list[Needle] = []
    for p in load_library():  # every pattern's needles, as prefilter() files them
        names += [Needle(None, p.needle_re)] if p.needle_re else [Needle(lit) for lit in p.literals]
    names = list(dict.fromkeys(names))
    re2_set, text_set = _RE2Set(names), _TextSet(names)
    differ = []
    for raw in _lines():
        text = body(display(raw))
        if sorted(re2_set.present(text)) != sorted(text_set.present(text)):
            differ.append(text)
    assert differ == []


@needs_re2
def test_literal_scan_selects_every_line_the_re2_scan_selects() -> None:
    minimal = _minimal(load_library())
    fast = chunk_scan(minimal)
    plain = _LiteralScan(
        [n.literal for n in minimal if n.literal]
        + [lit for n in minimal if n.expr for lit in regex_literals(n.expr)],
        False,
    )
    data = b"\n".join(_lines())

    def starts(scan) -> set[int]:
        return {data.rfind(b"\n", 0, m.start()) + 1 for m in scan.finditer(data)}

    assert starts(fast) and starts(fast) <= starts(plain)


def test_rewrites_re2_syntax_for_regex_and_finds_literals() -> None:
    assert rx.python_syntax(r"a[\s\x{85}]\z") == "a[\\s\\U00000085]\\Z"
    assert rx.python_syntax(r"\\x{85}") == r"\\x{85}"  # an escaped backslash, not an escape
    assert regex_literals(r"\.(?:erl|hrl):\d+:") == ("erl", "hrl")
    assert regex_literals(r"FAIL[\s\pZ]+\S+") == ("fail",)
    assert regex_literals(r"\d+") == ()


def test_text_set_reads_cased_non_ascii_and_unkeyed_expressions() -> None:
    got = _TextSet([Needle("échec"), Needle(None, r"\d+\.\d+"), Needle(None, r"FAIL[\s\pZ]+x")])
    assert sorted(got.present("ÉCHEC 1.5")) == [0, 1]
    assert list(got.present("FAIL\u2003x")) == [2]
    assert list(got.present("nothing here")) == []
    scan = _LiteralScan(["échec", "fail"], False)
    assert [m.start() for m in scan.finditer("ok\nÉCHEC\nFAIL".encode())] == [3, 10]


def test_a_hostile_prefilter_regex_times_out_as_a_match_not_a_stall() -> None:
    """On the `regex` path (no RE2) a library's expression runs under a timeout; one that times
    out selects the line (the pattern then confirms it under its own timeout)."""
    hostile = regex.compile(r"(a|a)+$")
    started = time.process_time()
    assert rx.found(hostile, "a" * 40 + "!", timeout=0.05)
    assert time.process_time() - started < 2
    assert not rx.found(hostile, "b", timeout=0.05)


def test_any_of_is_longest_first_and_linear_in_many_literals() -> None:
    words = [f"Mv{i:05d}q" for i in range(3000)] + ["Mv00001", "abc"]
    found = rx.any_of(words)
    text = "x Mv00001q y Mv00001 abcabc"
    assert [text[m.start() : m.end()] for m in found.finditer(text)] == [
        "Mv00001q",
        "Mv00001",
        "abc",
        "abc",
    ]
    assert rx.trie(["ab", "abc", "x.y"]) == r"(?:ab(?:c)?|x\.y)"
