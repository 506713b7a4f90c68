"""RE2's line forms also decide lines whose only non-ASCII characters are caseless symbols and
punctuation (engine/match/re2_lines.py `decidable`; issue 11): GCC's `‘’` quotes, `✓ ✗ ●`, box drawing,
emoji. Lines with other non-ASCII characters stay with `regex`."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

import pytest
import regex

pytest.importorskip("re2", reason="google-re2 (the fast extra) is not installed: no line forms")

from repopilot.engine.match.re2_lines import _inert, decidable  # noqa: E402
from tests.engine.match.test_set_engine_equal import compare, engines  # noqa: E402
from tests.engine_support import first_job, write_library  # noqa: E402

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("plain ASCII", True),
        ("x.c:3:5: error: ‘foo’ undeclared", True),
        ("✓ passes ✗ fails ● suite × 3 → ok", True),
        ("├── src │ └── a.py", True),
        ("🚀 deploy 🔥 failed", True),
        ("FAIL ﹟ test", True),
        ("tëst failed", False),  # a letter: `regex`'s \w takes it, RE2's does not
        ("3\u00a0tests", False),  # NBSP: `regex`'s \s
        ("٣ errors", False),  # an Arabic-Indic digit: `regex`'s \d
        ("a\u203fb", False),  # connector punctuation: `regex`'s \w
        ("Ⓐ circled", False),  # a symbol with case
        ("ℹ info", False),  # a letter-like symbol that is a letter (Ll)
        ("warning\ufe0f", False),  # a variation selector (Mn): `regex`'s \w
    ],
)
def test_which_lines_the_line_forms_decide(text: str, ok: bool) -> None:
    assert decidable(text) is ok


def test_no_unicode_class_or_case_fold_of_regex_takes_an_inert_character() -> None:
    """What makes the RE2 answer the `regex` answer: on every inert character `regex`'s `\\w`,
    `\\d`, `\\s` and `\\b` say what RE2's ASCII classes say (no), and IGNORECASE matches it with
    nothing else."""
    chars = [chr(i) for i in range(0x80, 0x30000) if not (0xD800 <= i < 0xE000)]
    inert = [c for c in chars if _inert(c)]
    assert len(inert) > 5000
    joined = "".join(inert)
    assert not regex.findall(r"[\w\d\s]", joined, flags=regex.V0)
    # `a✓a✓...`: a boundary on each side of every `a`, none between two inert characters
    pairs = "".join("a" + c for c in inert)
    assert len(regex.findall(r"\b", pairs, flags=regex.V0)) == 2 * len(inert)
    assert not regex.findall(r"\b", joined, flags=regex.V0)
    folded = regex.compile("(?i)[" + "".join(regex.escape(c) for c in inert) + "]")
    assert set(folded.findall("".join(chars))) == set(inert)


LIBRARY = """\
ecosystem: unicode-tests
patterns:
  - id: u.gcc
    category: compile_error
    regex: '^(?P<file>[^:\\s]+):(?P<line>\\d+):\\d+: error: (?P<msg>.+)$'
    title: '{file}'
    examples:
      match: ['a.c:1:2: error: x']
  - id: u.word
    category: test_failure
    regex: '\\b(?P<name>\\w+) FAILED\\b'
    title: '{name}'
    examples:
      match: ['abc FAILED']
  - id: u.caseless
    category: lint_format
    regex: '(?i)problems?: (?P<n>\\d+)'
    prefilter: ['problem']
    title: '{n}'
    examples:
      match: ['Problems: 3']
  - id: u.spaced
    category: test_failure
    regex: '^\\s*(?P<mark>[✗×]) (?P<test>\\S.*)$'
    prefilter_regex: '[✗×] '
    title: '{test}'
    examples:
      match: ['  ✗ a test']
"""

LINES = [
    "a.c:3:5: error: ‘foo’ undeclared (first use in this function)",
    "bé.c:3:5: error: ‘foo’ undeclared",
    "a.c:٣:5: error: digits that are not ASCII",
    "✓ abc FAILED ✓",
    "tëst FAILED",
    "x‿y FAILED",
    "PROBLEMS: 4 ●",
    "problems: ٣",
    "  ✗ renders the ‘button’",
    "\u00a0✗ after a no-break space",
    "🚀 deploy FAILED 🔥",
]


@pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None,
    reason="hyperscan is not installed: the set engine falls back to the reference path",
)
def test_both_engines_agree_on_symbol_and_letter_lines(tmp_path: Path) -> None:
    lib = write_library(tmp_path, LIBRARY, "u.yaml")
    ts = "2026-01-01T00:00:00.0000000Z "
    log = tmp_path / "gha.log"
    log.write_text(("ok\n" * 30 + "".join(f"{ts}{x}\n" for x in LINES)) * 20, encoding="utf-8")
    fast, ref = engines(lib)
    assert compare(fast, ref, [log]) == 1
    hits = {(h.pattern.id, h.text) for h in ref.scanner.scan(first_job(log)).hits}
    # the cases are live: symbol lines match, and the letter and digit traps tell regex apart
    assert ("u.gcc", LINES[0]) in hits and ("u.gcc", LINES[1]) in hits
    assert ("u.gcc", LINES[2]) in hits  # `regex`'s \d takes ٣
    assert ("u.word", LINES[3]) in hits and ("u.word", LINES[4]) in hits
    assert ("u.caseless", LINES[6]) in hits and ("u.caseless", LINES[7]) in hits
    assert ("u.spaced", LINES[8]) in hits and ("u.spaced", LINES[9]) in hits
    assert unicodedata.category("‘") == "Pi" and decidable(LINES[0]) and not decidable(LINES[1])


@pytest.mark.parametrize(
    "expr", [r"\s", r"\S", r"[^\s]", r"[\s\d]", r"[^\S]", r"\w", r"\W", r"\d", r"\D", r".", r"a\b"]
)
def test_line_forms_read_every_ascii_character_as_regex_does(expr: str) -> None:
    """A line form marked exact must agree with `regex` on every ASCII character (`regex`'s `\\s`
    leaves out the separators \\x1c-\\x1f that Python's `re` takes)."""
    import re2

    from repopilot.engine.match.re2_translate import translate

    form = translate(expr, False)
    assert form.exact
    line = re2.compile(form.line)
    for i in range(128):
        text = ("a" if expr.startswith("a") else "") + chr(i)
        if chr(i) == "\n":
            continue
        want = regex.search(expr, text, flags=regex.V0) is not None
        assert (line.search(text) is not None) == want, (expr, hex(i))
