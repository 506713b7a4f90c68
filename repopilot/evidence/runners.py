"""Runner knowledge as data: runners.toml (beside this module), read once per process.

What CI runners and test runners print around a failure (the runner's exit line and bookkeeping,
a command's echo, wrapper lines, tool summaries, noise, passing tests, where a failing test's
message is) lives in that one file, one entry per tool with its `source:`, like the pattern
library. The engine's verdict (engine/verdict/) and the evidence window (evidence/) compile what
they need from `entries(table)`; `runner_exit` is the one predicate for the runner's exit line.

TOML, not YAML: the standard library reads it (no PyYAML import on `classify`'s start-up path),
and its literal strings hold regexes without escaping. A malformed entry raises RunnerDataError
at import: the file ships with the package, so that is a defect of this checkout, not bad input.
Regexes are compiled where they are used (a bad one fails at import there too); the test suite
compiles every table (tests/evidence/test_runners.py).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

from repopilot.logs.textnorm import body

DATA = Path(__file__).with_name("runners.toml")
_COMMON = frozenset({"id", "source", "regex", "note"})
# The keys each table's entries may carry besides `id`, `source`, `regex` and `note`.
_EXTRA: dict[str, frozenset[str]] = {
    "exit": frozenset({"bare"}),
    "command_exit": frozenset(),
    "boilerplate": frozenset(),
    "echo": frozenset(),
    "end_marker": frozenset(),
    "wrapper_start": frozenset(),
    "wrapper_anywhere": frozenset({"needs"}),
    "summary": frozenset(),
    "noise": frozenset(),
    "states_failure": frozenset(),
    "handler_step": frozenset(),
    "passing": frozenset({"needs"}),
    "family": frozenset({"category"}),
    "step_family": frozenset({"category"}),
    "test": frozenset({"find", "reads_above", "test"}),
    "closing": frozenset({"says", "level", "above"}),
    "teardown": frozenset({"continues", "needs"}),
}
# A `test` entry's other string keys are the shapes its `find` procedure reads; `uninformative`
# is a message that says nothing unless the next line (`continued`) goes on with it, `where` the
# test's own line printed below it (engine/verdict/bare_message.py).
_SHAPE_KEYS = frozenset(
    {
        "message",
        "run",
        "section",
        "doctest",
        "result",
        "error",
        "panic",
        "uninformative",
        "continued",
        "where",
    }
)


class RunnerDataError(ValueError):
    """runners.toml is malformed (which table, which entry, what is wrong)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of runners.toml: what it recognises (`regex`), whose format it is (`id`) and
    where that format is written down (`source`)."""

    table: str
    id: str
    source: str
    regex: str
    needs: tuple[str, ...] = ()  # literals every match holds: a cheap test before the regex
    category: str = ""  # the category a keyword family guesses
    bare: bool = False  # an exit line that says nothing but the status: never evidence


@dataclass(frozen=True, slots=True)
class FailingTestShape:
    """A test runner: the failing test's line (`test`), how to find its message (`find`, a
    procedure of engine/verdict/assertions.py) and the shapes that procedure reads."""

    id: str
    source: str
    find: str
    test: re.Pattern[str]
    reads_above: bool = False
    shapes: tuple[tuple[str, re.Pattern[str]], ...] = field(default=())

    def shape(self, name: str) -> re.Pattern[str]:
        """The named shape (`message`, `run`, ...); a missing one is a defect of the data."""
        for key, rx in self.shapes:
            if key == name:
                return rx
        raise RunnerDataError(f"runners.toml: [[test]] {self.id}: no `{name}` regex")


Says = Literal["success", "failure"]
Level = Literal["job", "runner"]


@dataclass(frozen=True, slots=True)
class Closing:
    """A closing line (runners.toml `closing`): a CI system's end of a job (`level` job) or a
    tool's final summary (`level` runner), and whether it `says` success or failure. `above`:
    what the previous non-blank line must be for this one to count."""

    id: str
    source: str
    says: Says
    level: Level
    regex: re.Pattern[str]
    above: re.Pattern[str] | None = None


_Item: TypeAlias = dict[str, Any]  # one entry of a table, as tomllib reads it (checked below)


@functools.cache
def _tables() -> dict[str, tuple[_Item, ...]]:
    try:
        raw = tomllib.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RunnerDataError(f"{DATA}: {exc}") from exc
    unknown = sorted(set(raw) - set(_EXTRA))
    if unknown:
        raise RunnerDataError(f"runners.toml: unknown table(s) {', '.join(unknown)}")
    return {name: tuple(raw.get(name, ())) for name in _EXTRA}


def _checked(table: str, item: _Item) -> _Item:
    name = item.get("id", "?")
    where = f"runners.toml: [[{table}]] {name}"
    allowed = _COMMON | _EXTRA[table] | (_SHAPE_KEYS if table == "test" else frozenset())
    extra = sorted(set(item) - allowed)
    if extra:
        raise RunnerDataError(f"{where}: unknown key(s) {', '.join(extra)}")
    for key in ("id", "source", *(("find", "test") if table == "test" else ("regex",))):
        if not isinstance(item.get(key), str) or not item[key]:
            raise RunnerDataError(f"{where}: `{key}` must be a non-empty string")
    return item


@functools.cache
def entries(table: str) -> tuple[Entry, ...]:
    """The entries of one table, in file order (checked once)."""
    out = []
    for item in _tables()[table]:
        item = _checked(table, item)
        needs = item.get("needs", ())
        out.append(
            Entry(
                table=table,
                id=item["id"],
                source=item["source"],
                regex=item["regex"],
                needs=(needs,) if isinstance(needs, str) else tuple(needs),
                category=item.get("category", ""),
                bare=bool(item.get("bare", False)),
            )
        )
    return tuple(out)


def alternation(table: str) -> str:
    """The table's regexes as one alternation (the entries are alternatives)."""
    return "|".join(e.regex for e in entries(table))


def needs(table: str) -> tuple[str, ...]:
    """Every literal the table's entries need, in file order, once each."""
    return tuple(dict.fromkeys(lit for e in entries(table) for lit in e.needs))


@functools.cache
def failing_test_shapes() -> tuple[FailingTestShape, ...]:
    """The test runners, in the order they are tried."""
    out = []
    for item in _tables()["test"]:
        item = _checked("test", item)
        shapes = tuple((k, re.compile(item[k])) for k in sorted(_SHAPE_KEYS) if k in item)
        out.append(
            FailingTestShape(
                id=item["id"],
                source=item["source"],
                find=item["find"],
                test=re.compile(item["test"]),
                reads_above=bool(item.get("reads_above", False)),
                shapes=shapes,
            )
        )
    return tuple(out)


@functools.cache
def closing_lines() -> tuple[Closing, ...]:
    """The closing lines, in file order (checked once)."""
    out = []
    for item in _tables()["closing"]:
        item = _checked("closing", item)
        says, level, above = item.get("says"), item.get("level"), item.get("above")
        where = f"runners.toml: [[closing]] {item['id']}"
        if says not in ("success", "failure") or level not in ("job", "runner"):
            raise RunnerDataError(f"{where}: `says` success|failure, `level` job|runner")
        if above is not None and not isinstance(above, str):
            raise RunnerDataError(f"{where}: `above` must be a string")
        out.append(
            Closing(
                id=item["id"],
                source=item["source"],
                says=says,
                level=level,
                regex=re.compile(item["regex"]),
                above=re.compile(above) if above else None,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Teardown:
    """A teardown (runners.toml `teardown`): its start line, the lines it goes on with, and
    the literals a start line holds one of."""

    start: re.Pattern[str]
    continues: re.Pattern[str]
    needs: tuple[bytes, ...]


@functools.cache
def teardowns() -> tuple[Teardown, ...]:
    """The teardown table, in file order."""
    out = []
    for item in _tables()["teardown"]:
        item = _checked("teardown", item)
        more, needs = item.get("continues"), item.get("needs")
        if not isinstance(more, str) or not more or not isinstance(needs, list) or not needs:
            raise RunnerDataError(
                f"runners.toml: [[teardown]] {item['id']}: `continues` regex and `needs` literals"
            )
        lits = tuple(str(n).encode() for n in needs)
        out.append(Teardown(re.compile(item["regex"]), re.compile(more), lits))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RunnerExit:
    """The runner's exit report on a line: the status, and whether the line says nothing else
    (`bare`: never evidence)."""

    code: int
    bare: bool


_EXITS = tuple((re.compile(e.regex), e.bare) for e in entries("exit"))
_COMMAND_EXIT = re.compile(alternation("command_exit"))


def runner_exit(text: str) -> RunnerExit | None:
    """The runner's own exit report when display line `text` is one (GitHub's `Process
    completed with exit code N.`, Travis's `The command "..." exited with N.` and `Done. Your
    build exited with N.`), else None. The one predicate for that line: it says a command
    failed, never why."""
    t = body(text).strip()
    if "exit" not in t.lower():
        return None
    for rx, bare in _EXITS:
        m = rx.match(t)
        if m:
            return RunnerExit(int(m.group("code")), bare)
    return None


def bare_exit(text: str) -> bool:
    """A runner's exit line that says nothing but the status: never evidence."""
    found = runner_exit(text)
    return found is not None and found.bare


def ends_step(text: str) -> bool:
    """Whether display line `text` reports a non-zero exit: the runner's exit line, or a
    command's own (`exit status 1`): what follows belongs to something else."""
    found = runner_exit(text)
    return bool(found and found.code) or _COMMAND_EXIT.search(text) is not None
