"""How error-like one display line looks, by generic signals only (the fallback's score).

Signals: error words, exception names, `file:line[:col]` locations, ANSI red, `Error:`/`error:`/
`fatal:` prefixes, a runner `##[error]` annotation, and closeness to the end of the step.
Penalties: warnings, command echoes, the runner's exit line, wrapper lines that only say a command
failed. Each regex is tried the cheapest way that gives the same answer (a literal the text must
hold first, the lowered text for ASCII, the line start for anchored forms): the fallback scores
hundreds of lines per verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from repopilot.engine.verdict.passing import is_passing_test
from repopilot.evidence.runners import alternation, needs, runner_exit
from repopilot.logs.textnorm import annotation, body


@dataclass(frozen=True, slots=True)
class Line:
    """One display line of a job, with whether its raw form was coloured red."""

    number: int
    text: str  # display text
    red: bool  # the raw line was coloured red (ANSI)


_ERROR_WORDS = (
    r"\b(?:error|errors|fatal|failed|failure|fails|exception|panic|denied|refused|"
    r"abort(?:ed)?|cannot|can't|could not|unable to|not found|no such|invalid|unexpected|"
    r"undefined|missing|timed out|killed|segmentation fault|traceback)\b|\berr!"
)
_ERROR_WORD = re.compile("(?i)" + _ERROR_WORDS)
_EXCEPTION = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Failure|Fault)\b")
# `path.ext:12`, `path.ext(12`: a location. Searched from its dot, with the character before it
# (what `[\w./\\-]+` needs at least one of) as a lookbehind: the same lines match, and `re`
# need not start a run of path characters at every position of the line.
_LOCATION = re.compile(r"(?<=[\w./\\-])\.\w{1,6}[:(]\d")
_PREFIX = re.compile(
    r"^\s*(?:\[?(?:error|fatal|ERROR|FATAL|Error|E)\]?(?:\[[\w-]+\])?[:!]\s|✖|✗|×|"
    r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): )"
)
_WARNING = re.compile(r"(?i)^\s*(?:\[?warn(?:ing)?\]?[:!\s]|npm warn|deprecat)")
# A diagnostic that is no error: a compiler's warning or note at a location (`a.c:3:4: warning:`,
# GCC manual "Diagnostic Message Formatting Options"), rustc's `= note:`/`= help:` and
# `note:`/`help:` lines, git's `hint:` lines. A note never beats the error it explains.
_ASIDE = re.compile(
    r"^\s*(?:= )?(?:note|help|hint|Note): |^\S+?:\d+(?::\d+)?: (?:warning|note|remark)\b"
)
_NEGATIONS = r"\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b"
_NEGATED = re.compile("(?i)" + _NEGATIONS)
# On ASCII text, `(?i)` equals matching the lowered text, which `re` does several times faster.
_ERROR_WORD_LOW = re.compile(_ERROR_WORDS)
_NEGATED_LOW = re.compile(_NEGATIONS)
# The runner's echo of a command, other CI servers' end-of-build markers (the runner's exit line
# is `runner_exit`): they say what ran or that it failed, never why (runners.toml).
_ECHO = re.compile(f"^(?:{alternation('echo')})")
_MARKER = re.compile(f"^(?:{alternation('end_marker')})")
# Lines that only say a command failed: the cause is above them. Those that start the line,
# then those anywhere in it, tried only when the line holds a literal one of them needs.
_WRAPPER_AT_START = alternation("wrapper_start")
_WRAPPER_ANYWHERE = alternation("wrapper_anywhere")
_WRAPPER_NEEDS = needs("wrapper_anywhere")
WRAPPER = re.compile(f"^(?:{_WRAPPER_AT_START})|{_WRAPPER_ANYWHERE}")
_WRAPPER_START_RE = re.compile(_WRAPPER_AT_START)
_WRAPPER_ANYWHERE_RE = re.compile(_WRAPPER_ANYWHERE)


# Another command starts: bash xtrace (`+ cmd`, `++ cmd` inside a substitution; the GNU Bash
# manual, `set -x`) and npm's lifecycle banner (`> name@version script`, docs.npmjs.com
# `npm run-script`). What a script printed after one came from a command that ran after. Not
# three pluses (a unified diff's `+++ b/file` header), nor PowerShell's error record fields
# (`+ CategoryInfo          : ...`, learn.microsoft.com about_Error_Handling).
_COMMAND = re.compile(r"^(?:\+\+? (?![\w-]+ *: )[^\s+]|> (?:@[\w.-]+/)?[\w.-]+@\S+ \S)")


# A compiler's own warning line (`warning: unused import`, `warning[E0001]:`): lower case, as
# GCC and rustc print it. Upper-case `WARNING:` heads reports that are failures (a data race).
_COMPILER_WARNING = re.compile(r"^warning(?:\[[\w-]+\])?: ")


def is_aside(text: str) -> bool:
    """A compiler's or linter's warning, note, help or hint line (display text): never ahead of
    an error of the same pattern."""
    t = body(text).strip()
    return _ASIDE.match(t) is not None or _COMPILER_WARNING.match(t) is not None


def starts_command(text: str) -> bool:
    """Whether display line `text` echoes a command that the script starts."""
    return _COMMAND.match(body(text)) is not None


# Windows PowerShell's error record (its NormalView, learn.microsoft.com about_Error_Handling):
# `At <script>:<line> char:<column>` (or `At line:<n> char:<column>`), then the code line that
# failed and a caret line under it, each after `+ `. They quote the command that failed, printed
# after its error: no command that started later.
_PS_POSITION = re.compile(r"^At (?:line:\d+|\S.*:\d+) char:\d+$")


def command_starts(lines: Iterable[Line]) -> Iterator[int]:
    """The numbers of the lines that start a command (`starts_command`), in order, except an
    error record's quoted code and caret lines after its `At ... char:N` position."""
    quoting = False
    for ln in lines:
        t = body(ln.text)
        if _PS_POSITION.match(t.strip()):
            quoting = True
            continue
        if quoting and t.startswith("+ "):
            continue
        quoting = False
        if _COMMAND.match(t) is not None:
            yield ln.number


def says_wrapper(text: str) -> bool:
    """`WRAPPER.search(text)`, faster: the line-start forms are tried at the start only, the
    others only when the text holds a literal each of them needs."""
    if _WRAPPER_START_RE.match(text):
        return True
    if not any(literal in text for literal in _WRAPPER_NEEDS):
        return False
    return _WRAPPER_ANYWHERE_RE.search(text) is not None


def _words(text: str) -> tuple[bool, bool]:
    """(an error word, a negated count such as `0 errors`) in `text`."""
    if not text.isascii():
        return _ERROR_WORD.search(text) is not None, _NEGATED.search(text) is not None
    low = text.lower()
    error = _ERROR_WORD_LOW.search(low) is not None
    negated = ("error" in low or "fail" in low) and _NEGATED_LOW.search(low) is not None
    return error, negated


def _exception(text: str) -> bool:
    if not ("Error" in text or "Exception" in text or "Failure" in text or "Fault" in text):
        return False
    return _EXCEPTION.search(text) is not None


def _never(line: Line, text: str) -> bool:
    """Lines that cannot be evidence: blank, the runner's exit line, a passing test, an echo."""
    return (
        not text
        or runner_exit(line.text) is not None
        or is_passing_test(line.text)
        or _ECHO.match(line.text) is not None
    )


def _points(line: Line, text: str, error_word: bool) -> float:
    """The generic signals' points: annotation, prefix, words, exception, location, colour."""
    s = 0.0
    if annotation(line.text) == "error":
        s += 4
    if _PREFIX.match(text):
        s += 3
    if error_word:
        s += 2
    if _exception(text):
        s += 2
    if _LOCATION.search(text):
        s += 1.5
    if line.red:
        s += 1
    return s


def score(line: Line, end: int, span: int) -> float:
    """Generic error-ness of one line (0 when it cannot be evidence)."""
    text = body(line.text).strip()
    if _never(line, text):
        return 0.0
    error_word, negated = _words(text)
    if negated or _MARKER.match(text):
        return 0.0
    s = _points(line, text, error_word)
    if s == 0:
        return 0.0
    if _WARNING.match(text) or annotation(line.text) == "warning" or _ASIDE.match(text):
        s -= 3
    if says_wrapper(text):
        s -= 2.5
    # Closer to the end of the step is likelier the cause (at most one point).
    s += max(0.0, 1.0 - (end - line.number) / max(span, 1))
    return s
