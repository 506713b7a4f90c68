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
# The units of work tools name in their messages: the word after one is the project's name
# for it (a plain word, letters, digits, `_.-`), not the tool's fixed text.
_KIND_NOUNS = frozenset(
    "module modules package packages crate gem task target project test spec suite example "
    "scenario feature job service container image plugin library dependency artifact "
    "component class function method file formula cask app application bundle".split()
)
_NAME = re.compile(r"[a-z][\w.-]*[\w]|[a-z]", re.ASCII)
_SEGMENTS = re.compile(r"[A-Za-z]+|\d[\w.%]*|\w+|.", re.DOTALL)
# What a number, version, duration, date or time of day is made of (`3.2.1-rc1`, `12.5ms`,
# `2019-03-25T16:43:24Z`, `16:43:24,120`, `1.8.0_191+b12~16.04`): a digit first, then these.
_NUMBERISH = r"-\w.,:%+~/"
# A timestamp's words: the day and month names `date`, syslog and RFC 2822 print.
_CALENDAR = frozenset(
    "mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday "
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june "
    "july august september october november december".split()
)


def pieces(line: str) -> list[Piece]:
    """The generalised pieces of `line`, left to right; joined, their regexes match `line`."""
    out: list[Piece] = []
    names: dict[str, int] = {}
    for m in _PIECES.finditer(line):
        kind, text = m.lastgroup, m.group()
        nxt = line[m.end() : m.end() + 1]
        if kind == "space":
            # RE2's `\s` leaves out the vertical tab that Python's takes: name it where it is
            out.append(Piece("space", r"\s+" if "\x0b" not in text else r"[\s\x0b]+", text))
        elif kind == "red":
            out.append(_class(_stop(nxt), text))
        elif kind == "quoted":
            q, end = text[0], text[-1]
            body = rf"[^{re.escape(end)}\n]*"
            out.append(Piece("class", re.escape(q) + _named(body, "name", names) + re.escape(end),
                             text, "name"))  # fmt: skip
        elif kind == "word" and _names_next(out) and _NAME.fullmatch(text):
            stop = _stop(nxt, text)
            out.append(_class(_named(stop, "name", names), text, "name"))
        elif kind == "word":
            out.extend(_word(text, nxt, names))
        else:
            out.append(Piece("fixed", _esc(text), text))
    return _merge(out)


def _names_next(out: list[Piece]) -> bool:
    """The word before (after one space) is a noun that a tool puts before a name it reports
    (`module alpha`, `package left-pad`, `task lint`, `test parses_dates`)."""
    if len(out) < 2 or out[-1].kind != "space" or out[-2].kind != "fixed":
        return False
    return out[-2].text.lower() in _KIND_NOUNS


def _esc(text: str) -> str:
    """A literal for the regex, without the escapes a reader does not need outside a class."""
    return re.escape(text).replace("\\-", "-").replace("\\ ", " ")


def _named(body: str, name: str, names: dict[str, int]) -> str:
    n = names.get(name, 0) + 1
    names[name] = n
    return f"(?P<{name if n == 1 else f'{name}{n}'}>{body})"


def _stop(nxt: str, text: str = "") -> str:
    """A run of non-space characters that stops before `nxt` (the character after it), unless
    the run's own `text` holds that character too."""
    if nxt and not nxt.isspace() and not nxt.isalnum() and nxt not in text:
        return rf"[^\s{re.escape(nxt)}]+"
    return r"\S+"


def _class(regex: str, text: str, capture: str | None = None) -> Piece:
    return Piece("class", regex, text, capture)


def _word(word: str, nxt: str, names: dict[str, int]) -> list[Piece]:
    lead = ""
    while word and word[0] in _LEAD and len(word) > 1:
        lead, word = lead + word[0], word[1:]
    trail = ""
    while word and word[-1] in _TRAIL and len(word) > 1 and not _closes(word):
        trail, word = word[-1] + trail, word[:-1]
    after = trail[:1] or nxt
    core = _core(word, after, names)
    return (
        [Piece("fixed", _esc(c), c) for c in lead]
        + core
        + [Piece("fixed", _esc(c), c) for c in trail]
    )


_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _closes(word: str) -> bool:
    """The word's last character closes a bracket the word opened (`test_x[utc]`, `f(a)`)."""
    close = word[-1]
    return close in _PAIRS and word.count(_PAIRS[close]) >= word.count(close)


def _core(word: str, after: str, names: dict[str, int]) -> list[Piece]:
    if _URL.match(word):
        return [_class(_named(_stop(after, word), "url", names), word, "url")]
    if _TEST_ID.search(word):
        return [_class(_named(_stop(after, word), "test", names), word, "test")]
    if _HEX.match(word):
        return [_class(_named("[0-9A-Fa-f]+", "hash", names), word, "hash")]
    if word[:1].isdigit():  # a value: the same failure may print another type of value there
        return [_class(_named(_stop(after, word), "num", names), word, "num")]
    if _PATH.search(word) or _FILE.match(re.sub(r"(?::\d+)+$", "", word)):
        return _path(word, after, names)
    if word.isalpha():
        return [_plain(word)]
    if len(set(word)) == 1 and not word[0].isalnum() and len(word) >= 3:  # a rule: `=====`
        return [Piece("fixed", _esc(word[0]) + "{3,}", word)]
    if re.fullmatch(r"\w+", word):  # test_add, py38, E0308: names and codes
        return [_class(_named(r"\w+", "id", names), word, "id")]
    if _DOTTED.match(word):
        last = word.rsplit(".", 1)[1]
        if _TOOL_CAMEL.search(last):
            return [Piece("fixed", _esc(word), word)]
        return [_class(_named(r"[\w.$]+", "name", names), word, "name")]
    if looks_random(word):
        return [_class(_stop(after, word), word)]
    return _mix(word, after, names)


def _mix(word: str, after: str, names: dict[str, int]) -> list[Piece]:
    """A word of several kinds: cut at punctuation, each part on its own (`error[E0308]`,
    `--flag=value`, `shellcheck.hs:442:19`)."""
    out: list[Piece] = []
    parts = _SEGMENTS.findall(word)
    for i, part in enumerate(parts):
        nxt = parts[i + 1][:1] if i + 1 < len(parts) else after
        if part.isalpha():
            out.append(_plain(part))
        elif part[:1].isdigit() and nxt and not nxt.isspace() and nxt not in part:
            # stops at the separator after it: `442:19` is never two ways of one number
            out.append(_class(_named(rf"\d[^\s{re.escape(nxt)}]*", "num", names), part, "num"))
        elif part[:1].isdigit():
            out.append(_number(part, names))
        elif re.fullmatch(r"\w+", part):
            out.append(_class(r"\w+", part))
        else:
            out.append(Piece("fixed", _esc(part), part))
    return out


def _number(word: str, names: dict[str, int]) -> Piece:
    """A digit-led word: one class of number-like characters (any other character the word
    holds added), so a version, a duration or a timestamp of another shape still matches."""
    extra = "".join(sorted({c for c in word if not re.fullmatch(rf"[{_NUMBERISH}]", c)}))
    body = rf"\d[{_NUMBERISH}{re.escape(extra)}]*"
    return _class(_named(body, "num", names), word, "num")


def _plain(word: str) -> Piece:
    """A word of letters: fixed when it reads like a tool's word (lower case, Capitalised, CAPS,
    an exception name), else a name the project chose (`MathTest`)."""
    inner_caps = any(c.isupper() for c in word[1:])
    if word.lower() in _CALENDAR:  # a timestamp's day or month
        return _class("[A-Za-z]+", word)
    if len(word) > 24 or (inner_caps and not word.isupper() and not _TOOL_CAMEL.search(word)):
        return _class(r"\w+", word, "word")  # (a name, not a named capture)
    return Piece("fixed", _esc(word), word)


def _path(word: str, after: str, names: dict[str, int]) -> list[Piece]:
    """`src/a.py:12:5` -> a path class, then `:\\d+` for each position."""
    m = re.match(r"^(.*?)((?::\d+)*)$", word)
    path, pos = (m.group(1), m.group(2)) if m else (word, "")
    stop = ":" if pos else after
    body = (
        rf"[^\s{re.escape(stop)}]+" if stop and not stop.isspace() and stop not in path else r"\S+"
    )
    out = [_class(_named(body, "path", names), path, "path")]
    out.extend(_class(r":\d+", p) for p in re.findall(r":\d+", pos))
    return out


def _merge(ps: list[Piece]) -> list[Piece]:
    """Adjacent fixed pieces become one (a longer literal for the prefilter); adjacent classes
    become one class that stops where the next piece starts (two classes side by side could
    trade characters: a backtracking regex)."""
    out: list[Piece] = []
    for i, p in enumerate(ps):
        if out and p.kind == "fixed" and out[-1].kind == "fixed":
            last = out[-1]
            out[-1] = Piece("fixed", last.regex + p.regex, last.text + p.text)
        elif out and p.kind == "class" and out[-1].kind == "class" and _solid(out[-1], p):
            text = out[-1].text + p.text
            nxt = ps[i + 1].text[:1] if i + 1 < len(ps) else ""
            body = _stop(nxt, text)
            named = p.regex.startswith("(?P<")
            regex = f"(?P<{_group(p.regex)}>{body})" if named else body
            out[-1] = Piece("class", regex, text, p.capture or out[-1].capture)
        else:
            out.append(p)
    return out


def _solid(a: Piece, b: Piece) -> bool:
    """Two classes of one run of non-space characters (not a quoted value, which has spaces)."""
    return not any(c.isspace() for c in a.text + b.text) and a.text[:1] not in "'\"`‘“"


def _group(regex: str) -> str:
    """The name of the named group a class regex opens with."""
    return regex[4 : regex.index(">")]


END = "\\s*$"  # a whole line ends there (trailing blanks a log keeps and an example loses)


def regex_of(ps: list[Piece], indented: bool, whole: bool) -> str:
    """`^` + the pieces (+ END for the whole line); an indented line starts with `\\s+`."""
    lead = "^"
    if ps and ps[0].kind == "space":
        lead, ps = "^" + ps[0].regex, ps[1:]
    elif indented:
        lead = "^\\s+"
    return lead + "".join(p.regex for p in ps) + (END if whole else "")


def fixed_words(ps: list[Piece]) -> int:
    return sum(1 for p in ps if p.kind == "fixed" and any(c.isalpha() for c in p.text))
