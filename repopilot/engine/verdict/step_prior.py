"""The failing step's command as context: a category prior from what the step ran.

The structure layer knows the failing step; its `##[group]Run <command>` header, the script lines
the runner echoes under it, or (in logs that name steps) its name say what kind of work failed:
`npm publish`, `cargo fmt --check`, `pip install`, `docker build`, `go test`. The table is data,
`step_commands.toml` beside this module, each entry with the `source:` that documents the command.

The prior is weak evidence (issue 20, "the failing step's command as context"): it names the
category of an `unknown` or wrapper-only verdict, at a low confidence and saying so, and it breaks
a tie between two patterns of equal rank from different families. It never beats a pattern that
decides.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, cast

from repopilot.errors import PatternError
from repopilot.records import CATEGORIES, AssignedCategory, Category

DATA = Path(__file__).with_name("step_commands.toml")
SCRIPT_LINES = 30  # echoed script lines read under a step's header
CONFIDENCE = 0.25  # a category from the command alone: below any keyword or pattern verdict
RECAST_CONFIDENCE = 0.6  # a pattern's category read again in the light of the command
SAYS = "from the failing step's command"

# Lines the runner echoes after the script: they say how it ran, not what.
_ECHO_END = re.compile(r"^(?:##\[endgroup\]|shell: |env:\s*$|with:\s*$)")


@dataclass(frozen=True, slots=True)
class Entry:
    family: str
    category: AssignedCategory
    source: str
    command: re.Pattern[str]
    name: re.Pattern[str] | None
    recast: tuple[tuple[str, AssignedCategory], ...] = ()


@dataclass(frozen=True, slots=True)
class Prior:
    """What the failing step ran, as a category guess: the entry's family, the command text it
    was read from, and where that command is documented."""

    category: AssignedCategory
    family: str
    command: str
    source: str
    recast: tuple[tuple[str, AssignedCategory], ...] = ()

    def note(self) -> str:
        return f"{SAYS}: {self.command[:80]}"


@functools.cache
def entries(path: Path = DATA) -> tuple[Entry, ...]:
    """The table, validated: PatternError (one line) for a bad entry."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PatternError(f"{path}: cannot read: {exc}") from None
    out = []
    for i, e in enumerate(raw.get("entries") or []):
        where = f"{path}: entry {i + 1}"
        if not isinstance(e, dict) or e.get("category") not in CATEGORIES:
            raise PatternError(f"{where}: needs a category of the taxonomy")
        if not str(e.get("source") or "").strip() or not e.get("command"):
            raise PatternError(f"{where}: needs `source:` and `command:`")
        try:
            cmd = re.compile(e["command"], re.I)
            name = re.compile(e["name"], re.I) if e.get("name") else None
        except re.error as exc:
            raise PatternError(f"{where}: bad regex: {exc}") from None
        category = cast(AssignedCategory, e["category"])
        recast = e.get("recast") or {}
        if not isinstance(recast, dict) or not set(recast) | set(recast.values()) <= set(
            CATEGORIES
        ):
            raise PatternError(f"{where}: `recast:` maps taxonomy categories to categories")
        pairs = tuple((k, cast(AssignedCategory, v)) for k, v in recast.items())
        out.append(Entry(str(e.get("family") or ""), category, e["source"], cmd, name, pairs))
    return tuple(out)


def _command(text: str, table: tuple[Entry, ...]) -> Entry | None:
    return next((e for e in table if e.command.search(text)), None)


def script_of(lines: Sequence[str]) -> list[str]:
    """The echoed script under a `##[group]Run` header (the header's own line excluded)."""
    out = []
    for text in lines:
        if _ECHO_END.match(text):
            break
        if text.strip():
            out.append(text.strip())
    return out


def prior(step: str | None, script: Sequence[str] = ()) -> Prior | None:
    """The prior of a step named `step` (`Run <command>` for a raw GitHub log, a human name for
    a log that names steps) whose echoed script is `script`. The header's command decides first;
    else the script's commands when they agree, or the last of them when they do not (a `set -e`
    script stops at the command that failed, usually the last that ran); else the step's name."""
    table = entries()
    # `Run <command>` (GitHub) and `$ <command>` (Travis) name a command, not a step.
    header = step[4:] if step and step.startswith("Run ") else None
    if step and step.startswith("$ "):
        header = step[2:]
    if header:
        hit = _command(header, table)
        if hit is not None:
            return Prior(hit.category, hit.family, header, hit.source, hit.recast)
    found = [(line, e) for line in script[:SCRIPT_LINES] if (e := _command(line, table))]
    if found:
        line, hit = found[-1]
        return Prior(hit.category, hit.family, line, hit.source, hit.recast)
    if step and header is None:  # a human name (`Lint`, `Publish to PyPI`), never a command's words
        named = next((e for e in table if e.name is not None and e.name.search(step)), None)
        if named is not None:
            return Prior(named.category, named.family, step, named.source, named.recast)
    return None


G = TypeVar("G")


def tie_break(
    ranked: list[G],
    rank: Callable[[G], tuple[object, ...]],
    category: Callable[[G], str],
    get: Callable[[], Prior | None],
) -> list[G]:
    """`ranked` (best first) with the prior's category first among the leaders that tie on
    `rank` and differ in category. `get` is called only when there is such a tie."""
    if len(ranked) < 2:
        return ranked
    top = rank(ranked[0])
    tied = [g for g in ranked if rank(g) == top]
    if len(tied) < 2 or len({category(g) for g in tied}) < 2:
        return ranked
    p = get()
    if p is None:
        return ranked
    pick = next((g for g in tied if category(g) == p.category), None)
    if pick is None or pick is ranked[0]:
        return ranked
    return [pick] + [g for g in ranked if g is not pick]


def header_and_script(lines: Sequence[str]) -> tuple[str | None, list[str]]:
    """A step's first lines as (its `Run <command>` header, when the first line is one; the
    echoed script under it)."""
    if lines and lines[0].startswith("##[group]Run "):
        return lines[0][len("##[group]") :].strip(), script_of(lines[1:])
    return None, []


GUESSED = 0.25  # the fallback's own guesses at or below this are replaced by the prior


def guess_category(
    category: Category, confidence: float, get: Callable[[], Prior | None]
) -> tuple[Category, float, str]:
    """An unknown or step-name guess of the fallback, replaced by the step's prior when it has
    one: (category, confidence, the note saying where it came from)."""
    if confidence > GUESSED:
        return category, confidence, ""
    p = get()
    if p is None:
        return category, confidence, ""
    return p.category, CONFIDENCE, p.note()


def recast(category: str, get: Callable[[], Prior | None]) -> tuple[AssignedCategory, str] | None:
    """A pattern's category read again in the light of the failing step's command, where the
    table says so (a 404 from the registry in a publish step is an auth or permission failure, not
    a missing dependency): (the category, the note), or None. `get` is called only for a category
    some entry recasts."""
    if not any(category == k for e in entries() for k, _ in e.recast):
        return None
    p = get()
    if p is None:
        return None
    to = dict(p.recast).get(category)
    return (to, p.note()) if to is not None else None
