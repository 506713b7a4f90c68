"""The one definition of "invisible or deceptive" text (docs/THREAT_MODEL.md §3, §16).

Used twice, so the two can never disagree: `hygiene.sanitize` removes `INVISIBLE` characters from
untrusted text before a model or a reader sees it, and a proposed diff whose lines hold anything
`diff_deception` finds is refused before it is offered (`proposal.policy`) and withheld from the
comment (`comment.sections.withheld_reason`), because what a reviewer approves must be exactly
what they can see.

Deceptive in a diff line:
- an `INVISIBLE` character: format characters (Cf: zero-width, bidi controls, tag characters,
  soft hyphen, BOM), private-use characters (Co, no agreed glyph), the Hangul fillers U+115F,
  U+1160, U+3164, U+FFA0 (U+3164 is a valid, invisible JavaScript identifier), the braille blank
  U+2800, the combining grapheme joiner and variation selectors;
- a control character (Cc) other than TAB (and the CR of a CRLF line end): ESC starts ANSI
  sequences such as `ESC[8m` (concealed text in a terminal), BS and CR overwrite what was shown;
- line and paragraph separators (U+2028, U+2029), which some viewers break and others do not;
- on an added line, a run of `MAX_INNER_SPACES` blanks after code, or indentation deeper than
  `MAX_INDENT` columns: either pushes the rest of the line off screen in a review;
- a word mixing Latin letters with Cyrillic, Greek, Armenian or Cherokee ones (`pаypal` with a
  Cyrillic `а`): a look-alike identifier that reads as another.
"""

from __future__ import annotations

import regex

INVISIBLE = regex.compile(
    r"[\p{Cf}\p{Co}\u034f\u115f\u1160\u2800\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]+"
)
"""Characters a reader cannot see but a model, a compiler or a renderer acts on."""

MAX_INNER_SPACES = 40
MAX_INDENT = 120
_CONTROL = regex.compile(r"[\p{Cc}\u2028\u2029--[\t]]", flags=regex.V1)
_MIXED = regex.compile(
    r"(?<!\w)(?=\w*\p{Latin})(?=\w*[\p{Cyrillic}\p{Greek}\p{Armenian}\p{Cherokee}])\w+"
)
_BLANK = r"[ \t\u00a0\u3000\p{Zs}]"
_INNER_RUN = regex.compile(rf"\S{_BLANK}{{{MAX_INNER_SPACES},}}\S")
_INDENT = regex.compile(rf"{_BLANK}{{{MAX_INDENT + 1},}}\S")


def _name(char: str) -> str:
    return f"U+{ord(char):04X}"


def line_deception(line: str, added: bool = True) -> str | None:
    """What is deceptive in one line of text (without its LF), or None."""
    body = line[:-1] if line.endswith("\r") else line
    if (hit := INVISIBLE.search(body)) is not None:
        return f"invisible character {_name(hit.group()[0])}"
    if (hit := _CONTROL.search(body)) is not None:
        return f"control character {_name(hit.group())}"
    if not body.isascii() and (hit := _MIXED.search(body)) is not None:
        return f"a word mixing scripts ({hit.group()[:40]!r}), a look-alike"
    if added and _INDENT.match(body):
        return f"indentation deeper than {MAX_INDENT} columns"
    if added and _INNER_RUN.search(body):
        return f"a run of {MAX_INNER_SPACES} or more blanks inside the line"
    return None


def diff_deception(diff: str) -> str | None:
    """The first deceptive line of a unified diff, as `line N: what`, or None.

    Every line is checked for invisible and control characters (context and removed lines are
    shown to the reviewer too); the blank-run rules apply to added lines only."""
    for number, line in enumerate(diff.split("\n"), 1):
        added = line.startswith("+") and not line.startswith("+++ ")
        why = line_deception(line[1:] if added else line, added=added)
        if why is not None:
            return f"line {number}: {why}"
    return None
