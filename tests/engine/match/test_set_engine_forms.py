"""The set engine (issue 11): raw forms that hold on non-ASCII lines, the RE2 line set that
decides selected lines, and the engine on lines made to tell the paths apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import regex

from repopilot.engine.match.re2_translate import translate
from repopilot.logs.textnorm import body, display
from tests.engine.match.test_set_engine_equal import ScanOnce, compare, engines
from tests.engine_support import first_job, write_library

pytestmark = [
    pytest.mark.unit,
    pytest.mark.skipif(
        importlib.util.find_spec("hyperscan") is None,
        reason="hyperscan is not installed: the set engine falls back to the reference path",
    ),
]


def hs_matches(expr: str, data: bytes, caseless: bool = False) -> list[int]:
    import hyperscan as hs

    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    flags = hs.HS_FLAG_MULTILINE | (hs.HS_FLAG_CASELESS if caseless else 0)
    db.compile(expressions=[expr.encode("ascii")], ids=[0], flags=[flags])
    ends: list[int] = []
    db.scan(data, match_event_handler=lambda _i, _f, to, _fl, _c: ends.append(to))
    return ends


NON_ASCII = [
    (r"a.b", "x aéb y"),
    (r"(\w+) failed", "tëst failed"),
    (r"[^x]{2}y", "→ éüy"),
    (r"\S+ \d+ errors", "✖ 3 errors"),
    (r"✗ (\w+)", "✗ ünit"),
    (r"(?i)ÉCHEC: \w+", "échec: x"),
    (r"^E\s+\w+Error: .{0,800}?boom", "E   ValueError: ünï boom"),
    (r"[é-ü]+z", "éüz"),
    (r"error\W+here", "error → here"),
    (r"\d\D\d", "1é2"),
]


@pytest.mark.parametrize(("expr", "line"), NON_ASCII)
def test_raw_forms_hold_on_non_ascii_lines(expr: str, line: str) -> None:
    """Whatever the pattern matches in a line's matchable text, its raw form finds in the
    line's raw bytes (with a timestamp in front, as GitHub writes them)."""
    raw = ("2026-01-01T00:00:00.0000000Z " + line).encode("utf-8")
    assert regex.search(expr, body(display(raw)), flags=regex.V0)
    form = translate(expr, False)
    assert form.raw is not None
    assert hs_matches(form.raw + r"[^\n]*\n", raw + b"\n", form.ignore_case)


def test_raw_forms_stay_as_narrow_as_before_on_ascii_text() -> None:
    form = translate(r"a.b", False)
    assert form.raw is not None
    assert not hs_matches(form.raw, b"a\nb\n")
    assert not hs_matches(form.raw, b"axxb\n")
    assert hs_matches(form.raw, b"axb\n")


def test_the_same_line_at_many_offsets_is_found_every_time(tmp_path: Path) -> None:
    """A Vectorscan database of every line form reported only the first of these lines (a
    pair of `^=+ ...` and `^_+ ERROR collecting ...` forms): the line set is RE2's."""
    targets = ["== 1 passed, 1 failed in 1 seconds ==", "== 10 passed, 12 errors in 2.1s =="]
    lines = []
    for k in range(24):
        for t in targets:
            lines += ["x" * k, t]
    log = tmp_path / "summaries.log"
    log.write_text("\n".join(lines * 4) + "\n", encoding="utf-8")
    fast, ref = engines(None)
    assert compare(fast, ref, [log]) == 1
    hits = fast.scanner.scan(first_job(log)).hits
    assert len({h.line for h in hits}) == 2 * 24 * 4


LIBRARY = """\
ecosystem: plain-tests
patterns:
  - id: p.anchored
    category: test_failure
    regex: '^FAIL (?P<test>\\S+)\\s*$'
    title: 'failed {test}'
    examples:
      match: ['FAIL pkg/a']
      no_match: ['FAIL pkg/a extra']
  - id: p.tabbed
    category: compile_error
    regex: '^(?P<file>[^\\s:]+):(?P<line>\\d+):\\s+error\\b'
    title: 'error in {file}'
    examples:
      match: ['a.c:3: error']
      no_match: ['a.c:x: error']
  - id: p.behind
    category: lint_format
    regex: '(?<=\\.py):\\d+: [EW]\\d+'
    prefilter_regex: '\\.py:\\d+: '
    title: 'lint'
    examples:
      match: ['x.py:1: E501']
      no_match: ['x.rb:1: E501']
  - id: p.caseless
    category: oom_disk
    regex: '(?i)\\bkilled process \\d+'
    title: 'oom'
    examples:
      match: ['Killed process 12']
      no_match: ['skilled process 12']
  - id: p.unicode
    category: test_failure
    regex: '✗ (?P<name>\\w+) failed'
    title: 'failed {name}'
    examples:
      match: ['✗ unit failed']
      no_match: ['✓ unit passed']
  - id: p.wide
    category: test_failure
    regex: 'tests? (?P<n>\\w+) failed:.{0,40}?boom'
    title: 'boom'
    examples:
      match: ['test abc failed: it went boom']
      no_match: ['test abc failed: fine']
"""

LINES = [
    "FAIL pkg/a",
    "FAIL pkg/a   ",
    "FAIL pkg/a extra",
    "  FAIL pkg/a",
    "src/a.c:12:\terror: expected ';'",
    "src/a.c:12:\x07 error: a bell is not plain",
    "src/a.c:12: errors",
    "x.py:3: E501 line too long",
    "x.rb:3: E501 line too long",
    "KILLED PROCESS 77",
    "\u212aILLED PROCESS 78",  # Kelvin sign: folds to k under IGNORECASE
    "skilled process 1",
    "✗ ünit failed",
    "✗ unit failed",
    "test ünï failed: went boom",
    "test abc failed: it went boom",
    "test abc failed:\nboom",
    "##[error]FAIL pkg/b",
    "downloading 10%\rFAIL pkg/c",
]


def test_both_engines_agree_on_lines_made_to_tell_the_forms_apart(tmp_path: Path) -> None:
    lib = write_library(tmp_path, LIBRARY, "plain.yaml")
    ts = "2026-01-01T00:00:00.0000000Z "
    log = tmp_path / "gha.log"
    log.write_text("".join(f"{ts}{line}\n" for line in LINES), encoding="utf-8")
    bare = tmp_path / "plain.log"
    bare.write_text("".join(f"{line}\n" for line in LINES), encoding="utf-8")
    fast, ref = engines(lib)
    assert compare(fast, ref, [log, bare]) == 2
    hits = {(h.pattern.id, h.text) for h in ref.scanner.scan(first_job(bare)).hits}
    # the cases are live: each pattern matches somewhere, and the traps do not
    ids = {"p.anchored", "p.tabbed", "p.behind", "p.caseless", "p.unicode", "p.wide"}
    assert {pid for pid, _ in hits} == ids
    assert ("p.anchored", "FAIL pkg/a extra") not in hits
    assert ("p.caseless", "\u212aILLED PROCESS 78") in hits
    assert ("p.unicode", "✗ ünit failed") in hits
    assert ("p.behind", "x.rb:3: E501 line too long") not in hits


ROUTES = """\
ecosystem: route-tests
patterns:
  - id: r.exact
    category: test_failure
    regex: '^FAILED (?P<test>\\S+)'
    title: 'failed {test}'
    examples:
      match: ['FAILED a::b']
  - id: r.wider
    category: lint_format
    regex: '(?<=\\.py):\\d+: E\\d+'
    prefilter_regex: '\\.py:\\d+: '
    title: 'lint'
    examples:
      match: ['x.py:1: E501']
  - id: r.slow
    category: compile_error
    regex: 'duplicate (?P<w>\\w+) and (?P=w) again'
    title: 'dup'
    examples:
      match: ['duplicate foo and foo again']
"""


def test_lint_counts_each_route_and_says_why_a_pattern_is_slow(tmp_path: Path) -> None:
    from tests.engine_support import cli

    (tmp_path / "routes.yaml").write_text(ROUTES, encoding="utf-8")
    res = cli("patterns", "lint", "--patterns", str(tmp_path))
    out = res.stdout.decode() + res.stderr.decode()
    assert "1 decided by the RE2 line set, 1 with a wider RE2 form that regex confirms" in out
    assert "1 on the slow path, 0 selected by their needle" in out
    assert "; 0 left to their prefilter by the Hyperscan self-check" in out
    assert "r.slow: no RE2 form, stays on the slow per-pattern path: a backreference" in out


def test_every_example_of_the_library_at_many_offsets_is_found_by_both_engines(
    tmp_path: Path,
) -> None:
    """Each pattern's own match examples, repeated after filler lines of 0..5 characters, in
    one log (as GitHub writes it): the set engine finds exactly what the per-pattern path does."""
    from repopilot.engine.library.loader import load_library

    lines: list[str] = []
    want: dict[int, str] = {}
    for p in load_library():
        for ex in p.spec.examples.match:
            text = ex if isinstance(ex, str) else ex.line
            for k in range(6):
                lines.append("." * k)
                lines.append(text)
                want[len(lines)] = p.id
    ts = "2026-01-01T00:00:00.0000000Z "
    log = tmp_path / "examples.log"
    log.write_text("".join(f"{ts}{line}\n" for line in lines), encoding="utf-8")
    fast, ref = engines(None)
    assert compare(fast, ref, [log]) == 1
    got = {(h.line, h.pattern.id) for h in fast.scanner.scan(first_job(log)).hits}
    # live: most example lines in the kept range (ScanResult keeps the last MAX_HITS hits) are
    # hits of their own pattern (the rest sit in a `##[group]Run` echo an example opened, or
    # are outranked by a step rule: both engines agree on those too, as compared above)
    kept = min(n for n, _ in got)
    checked = [(n, pid) for n, pid in want.items() if n >= kept]
    assert sum((n, pid) in got for n, pid in checked) >= 0.5 * len(checked)


def test_a_log_with_quiet_and_busy_stretches_gives_the_reference_results(tmp_path: Path) -> None:
    """Quiet megabytes go to the per-pattern path, busy ones to the set engine, within one log
    (engine/match/scan.py QUIET): the findings are the reference path's, and both paths were used."""
    from repopilot.engine.match.scan import QUIET_PROBE

    ts = "2026-01-01T00:00:00.0000000Z "
    quiet = "".join(f"{ts}Compiling module_{i} (release) ok\n" for i in range(20000))
    # busy: ~2,000 candidate lines per MiB (BUSY is 300, QUIET 40) over ~1.4 MB, so the chunk
    # after the one the per-pattern path finds busy is busy too and the set engine scans it; a
    # wall of 12,000 error lines only made the per-pattern path (the reference) 5x slower
    busy = "".join(
        f"{ts}src/m{i}.c:{i}:5: error: expected ';' before '}}' token\n{ts}npm error code E{i}\n"
        + "".join(f"{ts}Linking unit_{i}_{j} (release) ok\n" for j in range(14))
        for i in range(1400)
    )
    log = tmp_path / "mixed.log"
    log.write_text((quiet * 2 + busy) * (QUIET_PROBE // 4 + 2) + quiet, encoding="utf-8")
    fast, ref = engines(None)
    fast.scanner = ScanOnce(fast.patterns, engine="set")  # adaptive, as the CLI runs it
    fast.scanner.prepare()
    assert compare(fast, ref, [log]) == 1
    assert fast.scanner.chunks["set"] > 0 and fast.scanner.chunks["reference"] > 0
