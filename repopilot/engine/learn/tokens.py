"""Generalise one (redacted) log line into a regex (docs/CONTRACTS.md Contract 6): the tool's fixed words
stay literal, what varies between occurrences becomes a class or a named capture.

A line is cut into pieces (whitespace, quoted text, words); a word is a path, a test id, a hash,
a number or duration, an identifier, a token-like value or a redaction mark (classes), or a fixed
word (literal), or a mix of them cut at its punctuation. Each class stops at the character that
follows it, so consecutive classes cannot trade characters back and forth (no backtracking
blow-ups on long lines: `patterns lint` times every learned regex anyway).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from repopilot.safety.entropy import looks_random

PieceKind = Literal["space", "fixed", "class"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One part of a generalised line: its regex, what it is, and the text it came from."""

    kind: PieceKind
    regex: str
    text: str
    capture: str | None = None  # the class's name, when it is a named capture


_PIECES = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<red>\[REDACTED:[a-z0-9-]+\])"
    r"|(?P<quoted>'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"|`[^`\n]{0,200}`|‘[^’\n]{0,200}’|“[^”\n]{0,200}”)"
    r"|(?P<word>(?:(?!\[REDACTED:)[^\s'\"`‘“])+)"
    r"|(?P<other>.)"
)
_LEAD = "([{<"
_TRAIL = ")]}>,;:.!?"
_EXT = (
    r"py|pyi|js|jsx|mjs|cjs|ts|tsx|go|java|kt|kts|scala|groovy|rb|rs|c|cc|cpp|cxx|h|hpp|cs|fs|php|"
    r"swift|m|mm|dart|ex|exs|erl|hs|clj|lua|pl|pm|r|sh|ps1|psm1|bat|json|ya?ml|toml|xml|gradle|"
    r"lock|cfg|ini|txt|md|rst|html|css|scss|vue|svelte|proto|sql|csproj|sln|pom|mk|cmake|dll|so|jar"
)
_FILE = re.compile(rf"^[\w.@+-]+\.(?:{_EXT})$", re.IGNORECASE)
_PATH = re.compile(r"[/\\]")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_TEST_ID = re.compile(r"::|#\w|^\w[\w.]*\[.*\]$")
_HEX = re.compile(r"^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}$", re.IGNORECASE)
_DOTTED = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$")
# A CamelCase word is a name the project chose (a class, a test) unless it is one of the
# exception or outcome words tools print.
_TOOL_CAMEL = re.compile(r"(?:Error|Exception|Failure|Failed|Fault|Warning|Timeout|Exit)$")
_SEGMENTS = re.compile(r"[A-Za-z]+|\d[\w.%]*|\w+|.", re.DOTALL)


def pieces(line: str) -> list[Piece]:
    """The generalised pieces of `line`, left to right; joined, their regexes match `line`."""
    out: list[Piece] = []
    names: dict[str, int] = {}
    for m in _PIECES.finditer(line):
        kind, text = m.lastgroup, m.group()
        nxt = line[m.end() : m.end() + 1]
        if kind == "space":
            out.append(Piece("space", r"\s+", text))
        elif kind == "red":
            out.append(_class(_stop(nxt), text))
        elif kind == "quoted":
            q, end = text[0], text[-1]
            body = rf"[^{re.escape(end)}\n]*"
            out.append(Piece("class", re.escape(q) + _named(body, "name", names) + re.escape(end),
                             text, "name"))  # fmt: skip
        elif kind == "word":
            out.extend(_word(text, nxt, names))
        else:
            out.append(Piece("fixed", _esc(text), text))
    return _merge(out)


def _esc(text: str) -> str:
    """A literal for the regex, without the escapes a reader does not need outside a class."""
    return re.escape(text).replace("\\-", "-").replace("\\ ", " ")


def _named(body: str, name: str, names: dict[str, int]) -> str:
    n = names.get(name, 0) + 1
    names[name] = n
    return f"(?P<{name if n == 1 else f'{name}{n}'}>{body})"


def _stop(nxt: str) -> str:
    """A run of non-space characters that stops before `nxt` (the character after it)."""
    if nxt and not nxt.isspace() and not nxt.isalnum():
        return rf"[^\s{re.escape(nxt)}]+"
    return r"\S+"


def _class(regex: str, text: str, capture: str | None = None) -> Piece:
    return Piece("class", regex, text, capture)


def _word(word: str, nxt: str, names: dict[str, int]) -> list[Piece]:
    lead = ""
    while word and word[0] in _LEAD and len(word) > 1:
        lead, word = lead + word[0], word[1:]
    trail = ""
    while word and word[-1] in _TRAIL and len(word) > 1:
        trail, word = word[-1] + trail, word[:-1]
    after = trail[:1] or nxt
    core = _core(word, after, names)
    return (
        [Piece("fixed", _esc(c), c) for c in lead]
        + core
        + [Piece("fixed", _esc(c), c) for c in trail]
    )


def _core(word: str, after: str, names: dict[str, int]) -> list[Piece]:
    if _URL.match(word):
        return [_class(_stop(after), word)]
    if _TEST_ID.search(word):
        return [_class(_named(_stop(after), "test", names), word, "test")]
    if _PATH.search(word) or _FILE.match(word):
        return _path(word, after, names)
    if _HEX.match(word):
        return [_class("[0-9A-Fa-f]+", word)]
    if word[:1].isdigit():
        return [_class(r"\d[\w.,%]*", word)]
    if word.isalpha():
        return [_plain(word)]
    if re.fullmatch(r"\w+", word):  # test_add, py38, E0308: names and codes
        return [_class(r"\w+", word)]
    if _DOTTED.match(word):
        last = word.rsplit(".", 1)[1]
        if _TOOL_CAMEL.search(last):
            return [Piece("fixed", _esc(word), word)]
        return [_class(_named(r"[\w.$]+", "name", names), word, "name")]
    if looks_random(word):
        return [_class(_stop(after), word)]
    if len(set(word)) == 1 and not word[0].isalnum() and len(word) >= 3:
        return [Piece("fixed", _esc(word[0]) + "{3,}", word)]
    # a mix: cut at punctuation, each part on its own (`error[E0308]`, `--flag=value`)
    out: list[Piece] = []
    parts = _SEGMENTS.findall(word)
    for i, part in enumerate(parts):
        nxt = parts[i + 1][:1] if i + 1 < len(parts) else after
        if part.isalpha():
            out.append(_plain(part))
        elif part[:1].isdigit():
            out.append(_class(r"\d[\w.,%]*" if nxt[:1] != "." else r"\d\w*", part))
        elif re.fullmatch(r"\w+", part):
            out.append(_class(r"\w+", part))
        else:
            out.append(Piece("fixed", _esc(part), part))
    return out


def _plain(word: str) -> Piece:
    """A word of letters: fixed when it reads like a tool's word (lower case, Capitalised, CAPS,
    an exception name), else a name the project chose (`MathTest`)."""
    inner_caps = any(c.isupper() for c in word[1:])
    if len(word) > 24 or (inner_caps and not word.isupper() and not _TOOL_CAMEL.search(word)):
        return _class(r"\w+", word)
    return Piece("fixed", _esc(word), word)


def _path(word: str, after: str, names: dict[str, int]) -> list[Piece]:
    """`src/a.py:12:5` -> a path class, then `:\\d+` for each position."""
    m = re.match(r"^(.*?)((?::\d+)*)$", word)
    path, pos = (m.group(1), m.group(2)) if m else (word, "")
    stop = ":" if pos else after
    body = rf"[^\s{re.escape(stop)}]+" if stop and not stop.isspace() else r"\S+"
    out = [_class(_named(body, "path", names), path, "path")]
    out.extend(_class(r":\d+", p) for p in re.findall(r":\d+", pos))
    return out


def _merge(ps: list[Piece]) -> list[Piece]:
    """Adjacent fixed pieces become one (a longer literal for the prefilter)."""
    out: list[Piece] = []
    for p in ps:
        if out and p.kind == "fixed" and out[-1].kind == "fixed":
            last = out[-1]
            out[-1] = Piece("fixed", last.regex + p.regex, last.text + p.text)
        else:
            out.append(p)
    return out


def regex_of(ps: list[Piece], indented: bool, whole: bool) -> str:
    """`^` + the pieces (+ `$` for the whole line); an indented line starts with `\\s+`."""
    if ps and ps[0].kind == "space":
        ps = ps[1:]
    return ("^\\s+" if indented else "^") + "".join(p.regex for p in ps) + ("$" if whole else "")


def fixed_words(ps: list[Piece]) -> int:
    return sum(1 for p in ps if p.kind == "fixed" and any(c.isalpha() for c in p.text))
