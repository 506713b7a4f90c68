"""The failure signature: what makes two failures "the same" (issue 14), defined once.

A signature is the verdict's pattern id plus its key captures (test name, error code, file, rule,
...). Volatile parts are normalized away only where they are volatile (issue 22):

- a key capture is an identity (`test_x[1m]`, `test_ip[10.0.0.1]`, `tmp/a/test_x.py`): only the
  checkout's path prefix and a trailing timing (` (12 ms)`, ` [0.3s]`) go; a duration, hex id,
  address, port or temp-looking directory inside it is part of the name;
- free text (a pattern's message when it captures no key, the first evidence line of an
  `unknown` failure) loses temporary directories (an absolute temp path keeps its file name),
  the checkout prefix, hex ids, UUIDs, timestamps, durations, addresses and ports, and for the
  evidence line every number too.

A part longer than MAX_PART is shortened with a hash of the whole, never cut: two ids that agree
on their first characters stay apart. When in doubt parts differ, which makes the origin
`undetermined` rather than a wrong `base_branch`. Two runs of the same broken test on different
runners, at different times, on different ports give the same signature; two different tests
failing in the same file do not.

Known limit: a verdict names its first failing test only, so two runs failing the same set of
tests in a different order (pytest-xdist) can get different signatures; that errs towards
"different failure" (no base-branch blame), never towards a wrong "not your PR".
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from repopilot.records import Verdict

# Captures that identify a failure; anything else (line, column, counts, durations, URLs) varies
# between runs of the same failure and stays out.
KEY_CAPTURES: tuple[str, ...] = (
    "test",
    "code",
    "rule",
    "file",
    "path",
    "module",
    "package",
    "error",
    "check",
    "target",
    "task",
    "spec",
    "name",
    "kind",
    "project",
    "plugin",
)
# Only used when none of the above is captured (e.g. a bare exception line).
FALLBACK_CAPTURES: tuple[str, ...] = ("message", "reason", "what")
# a normalized part longer than this keeps its start and a hash of the whole (an assertion diff
# says nothing more, but two ids sharing their first characters must not become one)
MAX_PART = 160
_HASHED = 16  # hex digits of SHA-256 after the kept start


def _compile(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), r) for p, r in pairs)


# the checkout: /home/runner/work/<repo>/<repo>/, /Users/runner/work/..., D:\a\<repo>\<repo>\
_WORKSPACE = _compile(
    (
        (r"(?:/home/runner|/Users/runner|/__w)/work/(?!_temp/)[^/\s]+/[^/\s]+/", "<ws>/"),
        (r"/__w/(?!_temp/)[^/\s]+/[^/\s]+/", "<ws>/"),
        (r"[a-z]:\\a\\(?!_temp\\)[^\\\s]+\\[^\\\s]+\\", "<ws>/"),
    )
)
# a timing a test reporter prints after the name: ` (12 ms)`, ` [0.31s]`, ` (1m 3s)`
_TRAILING_TIME = re.compile(
    r"\s+[(\[]\d+(?:\.\d+)?\s?(?:ms|us|µs|ns|s|sec|m|min)(?:\s?\d+(?:\.\d+)?\s?(?:ms|s))?[)\]]$",
    re.IGNORECASE,
)
_SUBS = _compile(
    (
        # temporary directories at a path's start (not `tests/tmp/`): POSIX /tmp, macOS
        # /var/folders, the runner's temp, Windows %TEMP%; the file name stays
        (r"(?<![\w.~-])(?:/private)?/var/folders/(?:[^\s'\"`:,;)/]+/)*", "<tmp>/"),
        (r"(?<![\w.~-])/(?:tmp|temp)/(?:[^\s'\"`:,;)/]+/)*", "<tmp>/"),
        (
            r"[a-z]:\\(?:a\\_temp|users\\[^\\\s]+\\appdata\\local\\temp)\\"
            r"(?:[^\s'\"`:,;)\\]+\\)*",
            "<tmp>/",
        ),
        (r"(?:/home/runner/work|/__w)/_temp/(?:[^\s'\"`:,;)/]+/)*", "<tmp>/"),
        *((p.pattern, r) for p, r in _WORKSPACE),
        # ISO-8601 and clock timestamps, before the numbers inside them are touched
        (r"\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:z|[+-]\d{2}:?\d{2})?", "<ts>"),
        (r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b", "<ts>"),
        (r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", "<uuid>"),
        (r"\b0x[0-9a-f]+\b", "<hex>"),
        # long hex runs with at least one digit and one letter: SHAs, object ids, container ids
        (r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b", "<hex>"),
        # host:port and IPv4 addresses (ephemeral ports differ on every run)
        (r"\b(?:\d{1,3}\.){3}\d{1,3}\b", "<ip>"),
        (r"(?<=[a-z>\]]):\d{2,5}\b", ":<port>"),
        # durations: 3.21s, 12 ms, 1m30s, 0.5 sec, 2 minutes
        (
            r"\b\d+(?:\.\d+)?\s?(?:ms|us|µs|ns|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b"
            r"(?:\s?\d+(?:\.\d+)?\s?(?:ms|s|secs?|seconds?))?",
            "<dur>",
        ),
    )
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_SPACE = re.compile(r"\s+")


def normalize(text: str, *, numbers: bool = True) -> str:
    """`text` with its volatile parts replaced by placeholders, whitespace collapsed.

    `numbers=False` keeps plain numbers (they are part of test names like `test_case_3[2]` or
    error codes like `E0308`); every other substitution still applies.
    """
    out = text.strip()
    for pattern, repl in _SUBS:
        out = pattern.sub(repl, out)
    if numbers:
        out = _NUMBER.sub("<n>", out)
    return _shorten(_SPACE.sub(" ", out))


def identity(text: str) -> str:
    """A key capture (test id, file, code, ...) as compared: the checkout's path prefix and a
    trailing timing removed, whitespace collapsed, nothing inside the name touched."""
    out = _TRAILING_TIME.sub("", text.strip())
    for pattern, repl in _WORKSPACE:
        out = pattern.sub(repl, out)
    return _shorten(_SPACE.sub(" ", out))


def _shorten(text: str) -> str:
    """`text`, or when longer than MAX_PART its start and a hash of all of it."""
    if len(text) <= MAX_PART:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASHED]
    return f"{text[: MAX_PART - _HASHED - 1]}#{digest}"


@dataclass(frozen=True, slots=True)
class Signature:
    """A failure's identity: `kind` is the pattern id (or `unknown`), `parts` its normalized
    keys."""

    kind: str
    parts: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        """The one-line form stored in traces and markers: `kind|k=v|k=v`."""
        return "|".join([self.kind, *(f"{k}={v}" for k, v in self.parts)])


def signature(verdict: Verdict) -> Signature | None:
    """The signature of a failed verdict; None when there is nothing to tell failures apart by
    (no failure, or an unknown failure with no evidence line, e.g. a log that could not be read)."""
    if not verdict.failed:
        return None
    if verdict.pattern_id:
        keys = [k for k in KEY_CAPTURES if verdict.captures.get(k)]
        if not keys:
            keys = [k for k in FALLBACK_CAPTURES if verdict.captures.get(k)]
        loose = set(FALLBACK_CAPTURES)  # free text: numbers in it are volatile too
        parts = tuple(
            (k, normalize(verdict.captures[k]) if k in loose else identity(verdict.captures[k]))
            for k in sorted(keys)
        )
        return Signature(verdict.pattern_id, parts)
    if verdict.evidence:
        return Signature(verdict.category, (("line", normalize(verdict.evidence[0].text)),))
    return None


def signature_text(verdict: Verdict) -> str | None:
    """`signature(verdict).text`, or None."""
    sig = signature(verdict)
    return None if sig is None else sig.text
