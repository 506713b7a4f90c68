"""The cheaper forms of the line tests after the scan give the answers of the regexes they replace.

Each reference below is the regex as it was searched before (one `search`, whole line); the engine
now tries a literal, the lowered ASCII text or the line start first (engine/verdict/line_score.py,
engine/verdict/passing.py, safety/redact.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repopilot.engine.verdict import line_score, passing
from repopilot.engine.verdict.assertions import reads_above
from repopilot.engine.verdict.line_score import says_wrapper
from repopilot.logs.textnorm import annotation, body, display
from repopilot.safety.redact import redact
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

WRAPPER_BEFORE = re.compile(
    r"Execution failed for task '|^FAILURE: Build failed with an exception|^\* What went wrong:|"
    r"^BUILD FAILED\b|ELIFECYCLE|ERR_PNPM_\w*FAIL|"
    r"^npm (?:ERR!|error) (?:Test failed\.|code ELIFECYCLE|errno -?\d|Failed at the |"
    r"A complete log of this run|This is probably not a problem|Lifecycle script |\s*command (?:sh|failed)|"
    r"\S+@\S+ [\w:-]+: `|path \S|workspace |location )|"
    r"^error Command failed with exit code \d+|^info Visit https://(?:yarnpkg|classic\.yarnpkg)|"
    r"\b(?:step script|script|command|process|subprocess) (?:exited|returned|failed) with "
    r"(?:exit )?(?:code|status) -?\d+|^ERROR: Job failed: |"
    r"^make(?:\[\d+\])?: \*\*\* .*Error \d+|^ninja: build stopped|"
    r"^error: could not compile `|^error: Recipe `|^Error: Command failed: |"
    r"^(?:ERROR: )?Failed (?:building wheel for|to build) |error: subprocess-exited-with-error|"
    r"^Error: Process completed with exit code|^\[ERROR\] Failed to execute goal .*There are test failures|"
    r"^\[ERROR\] (?:-> \[Help 1\]|Re-run Maven|To see the full stack trace|For more information about)"
)
ERROR_WORD_BEFORE = re.compile(
    r"(?i)\b(?:error|errors|fatal|failed|failure|fails|exception|panic|denied|refused|"
    r"abort(?:ed)?|cannot|can't|could not|unable to|not found|no such|invalid|unexpected|"
    r"undefined|missing|timed out|killed|segmentation fault|traceback)\b|\berr!"
)
NEGATED_BEFORE = re.compile(r"(?i)\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b")
LOCATION_BEFORE = re.compile(r"[\w./\\-]+\.\w{1,6}[:(]\d+(?:[:,]\d+)?\)?")
EXCEPTION_BEFORE = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Failure|Fault)\b")

# Pieces the regexes care about, mixed with case and Unicode folds `(?i)` knows (Kelvin K, long s,
# dotted I) and the passing-test marks.
PIECES = [
    "error",
    "Error",
    "ERROR",
    "ERRORS",
    "errors: 0",
    "0 errors",
    "No Failures",
    "zero failed",
    "failed",
    "FAIL",
    "fails",
    "Killed",
    "\u212aILLED",
    "fatal",
    "ab",
    "ort",
    "err!",
    "can't",
    "could not",
    "timed out",
    "Traceback",
    "ſegmentation fault",
    "İnvalid",
    "not found",
    "PASSED",
    "PASS",
    "ok",
    "(pass)",
    "✓",
    "✔",
    "√",
    "Failures: 0, Errors: 0",
    "0 failed",
    "Failed: 0",
    "--- PASS:",
    " ",
    "  ",
    "\t",
    ":",
    "(",
    ")",
    ",",
    "=",
    "12",
    "3",
    ".",
    "/",
    "-",
    "a.py",
    "x_test.go",
    "src",
    "ELIFECYCLE",
    "ERR_PNPM_X_FAIL",
    "npm ERR! ",
    "npm error ",
    "code ELIFECYCLE",
    "Test failed.",
    "script exited with code 1",
    "process returned with status 2",
    "command failed with exit code -1",
    "Execution failed for task '",
    "BUILD FAILED",
    "make[2]: *** ",
    "Error 2",
    "FAILURE: Build failed with an exception",
    "* What went wrong:",
    "[ERROR] ",
    "-> [Help 1]",
    "Failed to build ",
    "ERROR: ",
    "Failed building wheel for ",
    "error: subprocess-exited-with-error",
    "ninja: build stopped",
    "Error: Command failed: ",
    "NullPointerException",
    "ValueError",
    "AssertionFailure",
    "SegFault",
    "é",
    "ß",
    "🙂",
]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def _passing_before(text: str) -> bool:
    t = body(text)
    return bool(passing._PASSING.search(t)) and not passing._FAIL_WORD.search(
        passing._PASSING.sub("", t)
    )


def _check(text: str) -> None:
    assert says_wrapper(text) == bool(WRAPPER_BEFORE.search(text)), text
    assert line_score._words(text) == (
        bool(ERROR_WORD_BEFORE.search(text)),
        bool(NEGATED_BEFORE.search(text)),
    ), text
    assert bool(line_score._LOCATION.search(text)) == bool(LOCATION_BEFORE.search(text)), text
    assert line_score._exception(text) == bool(EXCEPTION_BEFORE.search(text)), text
    assert passing.is_passing_test(text) == _passing_before(text), text


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_shortcuts_answer_as_the_regexes_did(text):
    _check(text)


def test_shortcuts_on_known_lines():
    for text in [
        "make: *** [all] Error 2",
        "  src/a.py(12,5): error TS2322",
        "npm ERR! code ELIFECYCLE",
        "The step script exited with code 1",
        "\u212ailled",  # the Kelvin sign: not ASCII, so the `(?i)` regex decides
        "tests/test_x.py::test_error PASSED",
        "ok   github.com/x/y 0.1s",
        "0 errors, 0 warnings",
        "",
    ]:
        _check(text)
    assert line_score._words("\u212ailled")[0]


def test_reads_above_names_the_runners_that_look_above_the_test():
    assert reads_above("FAILED tests/test_a.py::test_x - AssertionError")
    assert reads_above("    --- FAIL: TestX (0.00s)")
    assert reads_above("(fail) cart > totals [0.1ms]")
    assert not reads_above("Cart > totals FAILED")
    assert not reads_above("  ● Cart › totals")


def test_redaction_still_finds_each_kind_among_plain_lines():
    plain = "Compiling module 12 of 40"
    assert redact(plain).text == plain and redact(plain).count == 0
    token = "ghp_" + "a1B2c3D4e5" * 4
    r = redact(f"using {token} and password=hunter2hunter2")
    assert token not in r.text and "hunter2" not in r.text and r.count == 2


SHARED = REPO_ROOT.parent / "shared" / "corpus"


@pytest.mark.corpus
def test_shortcuts_on_corpus_lines():
    if not SHARED.is_dir():
        pytest.skip("../shared/corpus is absent")
    logs = sorted(SHARED.rglob("*.log"))[::25]
    assert logs
    for log in logs:
        for raw in log.read_bytes().split(b"\n")[::7]:
            assert display(raw) == _display_before(raw)
            _check(body(display(raw)).strip())


def _display_before(raw: bytes | str) -> str:
    """textnorm.display as it was: every step on every line."""
    ts = re.compile(r"^\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?")
    ansi = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>]")
    raw = raw[:8192].decode("utf-8", "replace") if isinstance(raw, bytes) else raw[:8192]
    if raw.endswith("\n"):
        raw = raw[:-1]
    raw = raw.rstrip()
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if "\x1b" in raw:
        raw = ansi.sub("", raw)
    raw = ts.sub("", raw, count=1)
    if "\r" in raw:
        raw = next((seg for seg in reversed(raw.split("\r")) if seg.strip()), "").rstrip()
    return raw


LINE_PIECES = [
    "2026-01-01T00:00:00.1234567Z ",
    "2026-01-01T00:00:00Z",
    "\ufeff",
    "\x1b[31m",
    "\x1b[0K",
    "\x1b(B",
    "\x1b=",
    "\x1b[",
    "\r",
    "\r\n",
    "\n",
    " ",
    "\t",
    "##[error]",
    "##[group]Run x",
    "٣",
    "²",
    "1",
    "2026",
    "-",
    "text",
    "é",
    "\udcff",
    "$ cmd",
]
LINES = st.lists(st.sampled_from(LINE_PIECES), max_size=10).map("".join)


@settings(max_examples=1500, deadline=None)
@given(LINES)
def test_display_answers_as_before(text):
    assert display(text) == _display_before(text)
    raw = text.encode("utf-8", "surrogateescape")
    assert display(raw) == _display_before(raw)
    assert display(raw + b"x" * 9000) == _display_before(raw + b"x" * 9000)
    assert annotation(display(raw)) == (
        m.group(0)[3:-1]
        if (m := re.match(r"^##\[(?:error|warning|notice|debug)\]", display(raw)))
        else None
    )
