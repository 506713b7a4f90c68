"""Pass 1 selects a whitespace-led pattern by its needle, and symbols keep their own bytes
(engine/match/hyperscan_select.py, engine/match/re2_translate.py; issue 11)."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

import pytest
import regex

from repopilot.engine.library.loader import load_library
from repopilot.engine.match.hyperscan_select import _leads_with_space, needle_selector
from repopilot.engine.match.re2_translate import cased, translate
from tests.engine.match.test_set_engine_equal import compare, engines
from tests.engine.match.test_set_engine_forms import hs_matches
from tests.engine_support import first_job, write_library

pytestmark = pytest.mark.unit
needs_hyperscan = pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None,
    reason="hyperscan is not installed: the set engine falls back to the reference path",
)


@pytest.mark.parametrize(
    ("expr", "leads"),
    [
        (r"^\s+\S+:\d+:\d+:", True),
        (r"^[ \t]+(?:at|in) ", True),
        (r"^(?:\s+|x)y", True),
        (r"^[^a-z]+:", True),  # a negated class without the space takes it
        (r"^.*failed", True),
        (r"^ {5,6}(?P<e>\w+Error)", False),  # literal spaces: re2form cuts the run to one
        (r"^  (?P<n>\d+)\) ", False),
        (r"^\t(?:at|in) ", False),
        (r"\bFAILED ", False),
        (r"^[a-z]+ failed", False),
        (r"^[^\s:]+:\d+:", False),  # ... and without it, not
        (r"^\S+ ==> ", False),
        (r"^(?:E|F) ", False),
    ],
)
def test_whitespace_led_expressions_are_told_apart(expr: str, leads: bool) -> None:
    assert _leads_with_space(expr) is leads


LIBRARY = """\
ecosystem: select-tests
patterns:
  - id: s.indented
    category: test_failure
    regex: '^[ \\t]{4}(?P<error>(?:[A-Z]\\w*\\.)*[A-Z]\\w*Error): (?P<message>.*)$'
    prefilter_regex: '\\w+Error: '
    title: '{error}'
    examples:
      match: ['    Pkg.ValueError: bad', '    TypeError: x']
      no_match: ['ValueError: not indented', '     ValueError: five, one too many']
  - id: s.numbered
    category: test_failure
    regex: '^  (?P<n>\\d+)\\) (?P<test>.+)$'
    prefilter_regex: '  \\d+\\) '
    title: '{test}'
    examples:
      match: ['  1) suite works']
  - id: s.literal
    category: lint_format
    regex: '^   +WARNING: deprecated'
    title: 'deprecated'
    examples:
      match: ['    WARNING: deprecated']
"""


def _library(tmp_path: Path) -> Path:
    return write_library(tmp_path, LIBRARY, "s.yaml")


def test_only_a_whitespace_led_pattern_with_a_better_needle_is_selected_by_it(
    tmp_path: Path,
) -> None:
    by_id = {p.id: p for p in load_library(_library(tmp_path))}
    got = needle_selector(by_id["s.indented"])
    assert got == translate(r"\w+Error: ", True).raw
    assert needle_selector(by_id["s.numbered"]) is None  # led by literal spaces: its own form
    assert needle_selector(by_id["s.literal"]) is None  # literals: the raw form stays


@needs_hyperscan
def test_the_set_engine_finds_what_the_reference_finds_with_needle_selection(
    tmp_path: Path,
) -> None:
    lib = _library(tmp_path)
    ts = "2026-01-01T00:00:00.0000000Z "
    lines = [
        "    Pkg.ValueError: bad input",
        "ValueError: not indented",
        "     ValueError: five spaces",
        "\t   ValueError: a tab and three spaces",
        "    valueerror: lower case is not a class name",
        "  1) suite works",
        "    WARNING: deprecated",
        "    ✖ ValueError: x",
        "    ÄError: non-ASCII name",
    ]
    body = "".join(f"{ts}{line}\n" for line in lines)
    log = tmp_path / "gha.log"
    log.write_text(("ok\n" * 40 + body) * 30, encoding="utf-8")
    fast, ref = engines(lib)
    assert fast.scanner.sets is not None and fast.scanner.sets.finder is not None
    spec = fast.scanner.sets.finder._spec
    indented = next(i for i, p in enumerate(fast.scanner.patterns) if p.id == "s.indented")
    assert spec.owner.count(indented) == 1  # one expression: the needle's
    needle = translate(r"\w+Error: ", True).raw
    assert spec.exprs[spec.owner.index(indented)] == (needle + r"[^\n]*\n").encode()
    assert compare(fast, ref, [log]) == 1
    hits = {(h.pattern.id, h.text) for h in ref.scanner.scan(first_job(log)).hits}
    assert ("s.indented", "    Pkg.ValueError: bad input") in hits
    assert ("s.indented", "    ÄError: non-ASCII name") not in hits  # [A-Z] is ASCII
    assert ("s.indented", "     ValueError: five spaces") not in hits
    assert ("s.indented", "\t   ValueError: a tab and three spaces") in hits


@needs_hyperscan
def test_lint_counts_the_patterns_selected_by_their_needle(tmp_path: Path) -> None:
    from tests.engine_support import cli

    proc = cli("patterns", "lint", "--patterns", str(_library(tmp_path)))
    assert proc.returncode == 1  # (these test patterns name no `source:`)
    assert "1 selected by their needle as their regex starts with a whitespace class" in (
        proc.stdout.decode() + proc.stderr.decode()
    )


NEGATED = """\
ecosystem: negated-tests
patterns:
  - id: n.location
    category: compile_error
    regex: '^\\s+(?P<f>\\w+):.(?P<n>\\d+)'
    prefilter_regex: '\\w+:[^\\s]\\d'
    title: '{f}'
    examples:
      match: ['  foo:x12']
"""


def test_a_needle_with_a_negated_space_class_does_not_select(tmp_path: Path) -> None:
    """RE2's `[^\\s]` takes a vertical tab, which Python's reading of it (the raw form's) does
    not: such a needle would select fewer lines than the per-pattern path tries."""
    lib = write_library(tmp_path, NEGATED, "n.yaml")
    (p,) = load_library(lib)
    assert needle_selector(p) is None
    if importlib.util.find_spec("hyperscan") is None:
        return
    log = tmp_path / "plain.log"
    log.write_text(("ok\n" * 40 + "  foo:\x0b12\n  bar:x34\n") * 30, encoding="utf-8")
    fast, ref = engines(lib)
    assert compare(fast, ref, [log]) == 1
    hits = ref.scanner.scan(first_job(log)).hits
    assert {h.text for h in hits} == {"  foo:\x0b12", "  bar:x34"}


def test_symbols_without_case_are_their_own_bytes_in_a_caseless_raw_form() -> None:
    form = translate("✖ (?P<n>\\d+) problems", True)
    assert form.raw is not None and "\\xe2\\x9c\\x96" in form.raw
    for ch in "●✖×✗🚫→":
        assert not cased(ch)
    for ch in "éÄßſKƛ":  # letters: IGNORECASE may match another character
        assert cased(ch)


def test_no_other_character_folds_to_a_caseless_symbol() -> None:
    """What makes the exact bytes safe: `regex`'s IGNORECASE (its own, newer Unicode tables)
    matches a caseless symbol with nothing but itself."""
    symbols = [
        chr(i)
        for i in range(0x80, 0x30000)
        if not (0xD800 <= i < 0xE000) and unicodedata.category(chr(i))[0] in "SP"
    ]
    caseless = [c for c in symbols if not cased(c)]
    assert len(caseless) > 5000
    text = "".join(chr(i) for i in range(0x80, 0x30000) if not (0xD800 <= i < 0xE000))
    cls = regex.compile("(?i)[" + "".join(regex.escape(c) for c in caseless) + "]")
    assert set(cls.findall(text)) == set(caseless)


@needs_hyperscan
def test_a_caseless_raw_form_with_a_symbol_finds_the_symbol_only() -> None:
    form = translate("✖ \\d+ problems", True)
    assert form.raw is not None
    assert hs_matches(form.raw + r"[^\n]*\n", "x ✖ 3 PROBLEMS\n".encode(), True)
    assert not hs_matches(form.raw + r"[^\n]*\n", "x é 3 problems\n".encode(), True)


@pytest.mark.parametrize(
    ("expr", "raw"),
    [
        (r"^  (\d+)\)", r"\x20(?:[\d\x80-\xff]+)\x29"),
        (r"^ {5,6}Error", r"\x20Error"),
        (r"^ {2,}x", r"\x20x"),
        (r"^ +x", r"(?:\x20)+x"),  # one space already: as it was
        (r"^ *x", r"(?:\x20)*x"),
        (r"a  b", r"a\x20\x20b"),  # not at the start: kept
        (r"^ \t x", r"\x20\x09\x20x"),
    ],
)
def test_a_leading_run_of_spaces_is_one_space_in_the_raw_form(expr: str, raw: str) -> None:
    assert translate(expr, False).raw == raw


@needs_hyperscan
def test_the_shortened_raw_form_still_finds_every_line_the_pattern_matches() -> None:
    expr = r"^ {5,6}(?P<e>[A-Z]\w*Error)"
    form = translate(expr, False)
    assert form.raw is not None
    lines = ["     ValueError", "      TypeError", "x      KeyError", "2026-01-01T00:00:00Z      E"]
    for line in lines[:2]:
        assert regex.search(expr, line)
        assert hs_matches(form.raw + r"[^\n]*\n", f"{line}\n".encode())
    assert not hs_matches(form.raw + r"[^\n]*\n", b"ValueError\n")  # still needs its space
