"""Errors the failing step survived: not the cause (issue 20, "First cause, honestly ranked").

A script probes an error and goes on (an "is this version published?" lookup that 404s, a
`git rev-parse` of a branch it then creates), a program logs a traceback it caught and keeps
working, Ansible reports a task it was told to ignore. Those lines look like errors, and
patterns recognise them, but the step failed later, for another reason. Three rules, each from
what the tools print, none from a project:

- **Ignored** (`without_ignored`): Ansible's default callback prints `...ignoring` right after the result
  of a failed task that has `ignore_errors` (ansible/ansible:
  lib/ansible/plugins/callback/default.py, `v2_runner_on_failed`). Such a `fatal:`/`failed:` line
  is no failure at all: it is dropped before the failure rule looks at the hits.
- **Went on** (`survived`): after a group's last hit, the shell ran another command (bash's
  xtrace echo `+ cmd`, npm's lifecycle banner `> pkg@1.0.0 script`), and after that command
  started the step printed another error-looking line. With `bash -e` (GitHub's default shell) a
  command that failed unhandled ends the step, so an error followed by further commands was
  handled by the script. Not when that command is the handler of a `trap` the xtrace showed
  (`+ trap cleanup EXIT`): an EXIT or ERR trap runs after the failure.
- **Far** (`survived`): a group's last hit is FAR lines or more before the failure was reported,
  and an error-looking line within the fallback's window at the step's end is nearer. Never for
  a crash, an out-of-memory kill or a timeout (`ENDS_PROGRAM`): the program did not go on.

Neither rule judges the tools that report every finding and fail at the end (tests, compilers,
linters, type checkers): their first finding is a cause however much output follows it, and a
test diff's lines are no commands.

A hit group (all the hits of one pattern) survives only as a whole: its last hit is judged.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import deque
from collections.abc import Callable, Sequence

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.fallback import LOOKBACK, MIN_SCORE
from repopilot.engine.verdict.line_score import Line, command_starts, says_wrapper, score
from repopilot.logs.textnorm import body

FAR = 1000  # lines between a hit and the failure's report beyond which it is "far"
WENT_ON_WITHIN = 200  # lines after a hit read for the next command's echo
IGNORED_WITHIN = 200  # lines after an Ansible result read for its `...ignoring`
MAX_GROUPS = 8  # hit groups judged per verdict (the latest ones)
TRAP_WITHIN = 400  # lines from the step's start read for the script's `trap` (bash xtrace)

# Categories whose tools report every finding, then fail (a test run, a compiler, a linter):
# an early finding is not survived because the report went on.
REPORTING = frozenset({"test_failure", "compile_error", "lint_format", "type_check"})

# A crash, an out-of-memory kill or a timeout ends the program that printed it (Go's test binary
# prints `panic: test timed out` then every goroutine's stack, often thousands of lines, before
# `FAIL pkg`; a JVM's OutOfMemoryError before the build's summary): however far before the
# failure's report, what follows it reports it. Not judged "far".
ENDS_PROGRAM = frozenset({"crash_segfault", "oom_disk", "timeout_cancelled"})

# Ansible's default callback: a task's failed result, then `...ignoring` for `ignore_errors`;
# the next banner (`TASK [...]`, `RUNNING HANDLER [...]`, `PLAY [...]`, `PLAY RECAP`) ends it.
_ANSIBLE_RESULT = re.compile(r"^(?:fatal|failed): \[[^\]]+\]")
_IGNORING = re.compile(r"^\.\.\.ignoring\s*$")
_BANNER = re.compile(r"^(?:TASK|RUNNING HANDLER|PLAY) \[|^PLAY RECAP\b")

# bash xtrace echoes `trap` itself (`+ trap cleanup EXIT`, `+ trap 'rm -rf /tmp/x' ERR`; the GNU
# Bash manual, `trap` and `set -x`). When the first command after an error is that handler's, the
# step ended at the error and its trap runs: the script did not go on.
_TRAP = re.compile(
    r"""^\++ trap (?:-- )?(?:'(?P<q>[^']+)'|"(?P<d>[^"]+)"|(?P<w>[^\s'"-]\S*))"""
    r"(?: +(?:SIG)?[A-Z]+[0-9]*| +\d+)+\s*$"
)
_XTRACE = re.compile(r"^\++ ")

Reader = Callable[[int, int], list[Line]]


def without_ignored(hits: list[Hit], res: ScanResult, read: Reader) -> tuple[list[Hit], ScanResult]:
    """`hits` and the scan's error-like lines without the Ansible results that `...ignoring`
    follows: as if those tasks had not failed."""
    texts = [(h.line, h.text) for h in hits]
    texts += [(n, t) for q in res.generic.values() for n, t, _ in q]
    gone = {n for n, t in texts if _ANSIBLE_RESULT.match(body(t)) and _is_ignored(n, read)}
    if not gone:
        return hits, res
    kept = {k: deque((g for g in q if g[0] not in gone), q.maxlen) for k, q in res.generic.items()}
    return [h for h in hits if h.line not in gone], dataclasses.replace(res, generic=kept)


def _is_ignored(line: int, read: Reader) -> bool:
    for ln in read(line + 1, line + IGNORED_WITHIN):
        t = body(ln.text).strip()
        if _IGNORING.match(t):
            return True
        if _BANNER.match(t) or _ANSIBLE_RESULT.match(t):
            return False
    return False


def _error_like(ln: Line, focus: int) -> bool:
    """An error-looking line (the fallback's strong score, nearness to the end included) that
    is not a wrapper (a wrapper only says that a command failed)."""
    return score(ln, focus, LOOKBACK) >= MIN_SCORE and not says_wrapper(body(ln.text).strip())


def _error_lines(res: ScanResult, start: int, focus: int) -> list[int]:
    """The error-looking lines the scan kept for the failing step (`start..focus`)."""
    out = []
    for q in res.generic.values():
        for n, text, _ in q:
            if start <= n < focus and _error_like(Line(n, text, False), focus):
                out.append(n)
    return out


def survived(
    res: ScanResult, hits: Sequence[Hit], start: int, focus: int, read: Reader
) -> set[str]:
    """The pattern ids of the hit groups in the failing step (`start..focus`) that the step
    survived (module docstring)."""
    last: dict[str, Hit] = {}
    for h in hits:
        seen = last.get(h.pattern.id)
        if seen is None or h.line > seen.line:
            last[h.pattern.id] = h
    judged = sorted(last.values(), key=lambda h: h.line)[-MAX_GROUPS:]
    if not judged or judged[0].line >= focus - 1:
        return set()
    generic = _error_lines(res, judged[0].line + 1, focus)
    traps = functools.cache(lambda: _trap_handlers(read(start, min(focus, start + TRAP_WITHIN))))
    out: set[str] = set()
    for h in judged:
        # what the step printed after this group: other patterns' hits (no wrapper) and the
        # error-looking lines the scan kept
        later = sorted(
            {n for n in generic if n > h.line}
            | {
                x.line
                for x in hits
                if x.pattern.id != h.pattern.id
                and h.line < x.line < focus
                and not says_wrapper(body(x.text))
            }
        )
        if h.pattern.spec.category in REPORTING or not later:
            continue
        far = h.pattern.spec.category not in ENDS_PROGRAM and _far(h, later, focus)
        if far or _went_on(h.line, later, focus, read, traps):
            out.add(h.pattern.id)
    return out


def _far(h: Hit, later: list[int], focus: int) -> bool:
    """The hit is far before the failure's report and an error-looking line is near it."""
    return focus - h.line >= FAR and later[-1] >= focus - LOOKBACK


def _went_on(
    line: int, later: list[int], focus: int, read: Reader, traps: Callable[[], frozenset[str]]
) -> bool:
    """Another command started after `line` and an error-looking line follows its start (not
    the script's trap handler running: `_TRAP`)."""
    lines = read(line + 1, min(focus - 1, line + WENT_ON_WITHIN))
    for number in command_starts(lines):
        text = next(ln.text for ln in lines if ln.number == number)
        if _first_word(_XTRACE.sub("", body(text), count=1)) in traps():
            return False
        return later[-1] > number
    return False


def _first_word(command: str) -> str:
    words = command.split()
    return words[0] if words else ""


def _trap_handlers(lines: list[Line]) -> frozenset[str]:
    """The first words of the handlers the step's xtrace shows `trap` setting."""
    out = set()
    for ln in lines:
        m = _TRAP.match(body(ln.text))
        if m:
            out.add(_first_word(m.group("q") or m.group("d") or m.group("w")))
    return frozenset(out - {""})
