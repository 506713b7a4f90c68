"""Widening a learned pattern by one more example (docs/CONTRACTS.md Contract 6: several examples
of the same failure make one pattern, not a pile).

A learned regex is its line's words joined by `\\s+` (engine/learn/tokens.py). A new line with
as many words, where all but a few (at most a quarter, at least one) already match their word's
regex, is the same failure said about something else: those words become classes (the new word's
own generalisation when it takes the old word too, else any run of non-space characters, a named
capture). A line with another number of words, or more differences, is another failure.
"""

from __future__ import annotations

import re

from repopilot.engine.learn.tokens import END, pieces, regex_of
from repopilot.engine.library.loader import MatchExample, Pattern

SPACE = r"\s+"
_LEADS = ("^\\s+", "^[\\s\\x0b]+", "^")  # how the learner starts a regex (tokens.regex_of)
_ENDS = (END, "$")


def split_words(regex: str) -> tuple[str, list[str], str] | None:
    """(`^` or `^\\s+`, the word regexes, `$` or ``) of a regex the learner made; None when it is
    not of that form."""
    lead = next((x for x in _LEADS if regex.startswith(x)), None)
    if lead is None:
        return None
    end = next((x for x in _ENDS if regex.endswith(x) and not regex.endswith("\\" + x)), "")
    body = regex[len(lead) : len(regex) - len(end)]
    words: list[str] = []
    cur: list[str] = []
    i, depth, in_class = 0, 0, False
    while i < len(body):
        c = body[i]
        if c == "\\":
            if not in_class and depth == 0 and body.startswith(SPACE, i):
                words.append("".join(cur))
                cur = []
                i += len(SPACE)
                continue
            cur.append(body[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        cur.append(c)
        i += 1
    words.append("".join(cur))
    return (lead, words, end) if all(words) and depth == 0 else None


def widen(q: Pattern, line: str) -> str | None:
    """`q`'s regex made to take `line` too (unchanged when it already does); None when `line`
    is not the same failure by the rule above."""
    if len(q.exprs) != 1:
        return None
    got = split_words(q.exprs[0])
    if got is None or not got[2]:
        return None
    lead, words, end = got
    if (lead != "^") != line[:1].isspace():
        return None
    tokens = line.split()
    if len(tokens) != len(words):
        return None
    diffs = [i for i, (w, t) in enumerate(zip(words, tokens, strict=True)) if not _full(w, t)]
    if len(diffs) > max(1, len(words) // 4):
        return None
    old = _old_words(q, len(words))
    names = set(re.compile(q.exprs[0]).groupindex)
    out = list(words)
    for i in diffs:
        own = regex_of(pieces(tokens[i]), False, False)[1:]
        if old is not None and _full(own, old[i]) and not _named_clash(own, names):
            out[i] = own
        else:
            name = next(f"var{n}" if n > 1 else "var" for n in range(1, 99)
                        if (f"var{n}" if n > 1 else "var") not in names)  # fmt: skip
            names.add(name)
            out[i] = f"(?P<{name}>\\S+)"
    if not any(_fixed(w, t) for w, t in zip(out, tokens, strict=True)):
        return None  # no fixed word would be left: not the same failure, just any line
    return lead + SPACE.join(out) + end


def _full(regex: str, text: str) -> bool:
    try:
        return re.fullmatch(regex, text) is not None
    except re.error:
        return False


def _named_clash(regex: str, names: set[str]) -> bool:
    return any(n in names for n in re.compile(regex).groupindex)


def _old_words(q: Pattern, n: int) -> list[str] | None:
    first = q.spec.examples.match[0] if q.spec.examples.match else None
    text = first.line if isinstance(first, MatchExample) else first
    words = text.split() if text else []
    return words if len(words) == n else None


def _fixed(word: str, token: str) -> bool:
    """The word regex is the token's literal text, and the token has letters."""
    return re.sub(r"\\(.)", r"\1", word) == token and any(c.isalpha() for c in token)
