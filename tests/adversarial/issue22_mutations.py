"""Mutations of a pattern's example line for the issue 22 differential test (no tests here): what a
log does to a line on its way (ANSI and OSC sequences, CR and CRLF, NUL/VT/FF, NBSP, case, padding)
and what an attacker or a near-miss format does (look-alike characters, a dropped or doubled
character, a missing space, splices of two lines)."""

from __future__ import annotations

from collections.abc import Callable

LOOKALIKE = {
    "a": "а",  # Cyrillic
    "e": "е",
    "o": "о",
    "p": "р",
    "c": "с",
    "x": "х",
    "i": "і",
    ")": "）",
    "(": "（",
    ":": "：",
    "-": "‐",
    ".": "․",
    "/": "∕",
    "|": "｜",
    "[": "［",
    "]": "］",
}
STAMP = "2026-01-01T00:00:00.0000000Z "


def _at(line: str, frac: float) -> int:
    return min(len(line), max(0, int(len(line) * frac)))


def _insert(text: str, frac: float, what: str) -> str:
    i = _at(text, frac)
    return text[:i] + what + text[i:]


def _drop(text: str, frac: float) -> str:
    i = _at(text, frac)
    return text[:i] + text[i + 1 :]


def _first_space_after_punct(text: str) -> str:
    for i in range(1, len(text)):
        if text[i] == " " and not text[i - 1].isalnum() and text[i - 1] != " ":
            return text[:i] + text[i + 1 :]
    return text


def _lookalike_first(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.lower() in LOOKALIKE:
            return text[:i] + LOOKALIKE[ch.lower()] + text[i + 1 :]
    return text


def _lookalike_punct(text: str) -> str:
    return "".join(LOOKALIKE.get(c, c) if not c.isalnum() else c for c in text)


MUTATIONS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("same", lambda s: s),
    ("stamp", lambda s: STAMP + s),
    ("ansi-wrap", lambda s: "\x1b[31m" + s + "\x1b[0m"),
    ("ansi-mid", lambda s: _insert(s, 0.5, "\x1b[1m")),
    ("ansi-k", lambda s: "\x1b[2K\x1b[1G" + s),
    ("osc-link", lambda s: "\x1b]8;;https://example.invalid/\x07" + s + "\x1b]8;;\x07"),
    ("osc-title", lambda s: "\x1b]0;title\x07" + s),
    ("cr-end", lambda s: s + "\r"),
    ("cr-progress", lambda s: "progress 10%\r" + s),
    ("cr-mid", lambda s: _insert(s, 0.5, "\r")),
    ("nul-start", lambda s: "\x00" + s),
    ("nul-mid", lambda s: _insert(s, 0.5, "\x00")),
    ("vt-mid", lambda s: _insert(s, 0.4, "\x0b")),
    ("ff-start", lambda s: "\x0c" + s),
    ("nbsp-all", lambda s: s.replace(" ", "\xa0")),
    ("nbsp-first", lambda s: s.replace(" ", "\xa0", 1)),
    ("tab-spaces", lambda s: s.replace("  ", "\t", 1)),
    ("upper", str.upper),
    ("lower", str.lower),
    ("swapcase", str.swapcase),
    ("pad-left", lambda s: "  " + s),
    ("pad-right", lambda s: s + "   "),
    ("lstrip", str.lstrip),
    ("one-space", lambda s: " ".join(s.split(" ")) if "  " not in s else s.replace("  ", " ")),
    ("no-space", _first_space_after_punct),
    ("append-x", lambda s: s + "x"),
    ("lookalike-first", _lookalike_first),
    ("lookalike-punct", _lookalike_punct),
    ("drop-third", lambda s: _drop(s, 1 / 3)),
    ("drop-half", lambda s: _drop(s, 0.5)),
    ("drop-last", lambda s: s[:-1]),
    ("double-half", lambda s: _insert(s, 0.5, s[_at(s, 0.5) : _at(s, 0.5) + 1])),
    ("head", lambda s: s[: _at(s, 0.6)]),
    ("tail", lambda s: s[_at(s, 0.4) :]),
)


def mutations(line: str) -> list[str]:
    """Every single mutation of `line` (one physical line each: no LF inside)."""
    return list(dict.fromkeys(m(line).replace("\n", " ") for _name, m in MUTATIONS))


def splice(one: str, other: str) -> str:
    """The first half of `one` and the second half of `other`."""
    return one[: _at(one, 0.5)] + other[_at(other, 0.5) :]
