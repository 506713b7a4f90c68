"""Load and validate the YAML pattern library; compile every regex with `regex`.

A pattern file is `{ecosystem: str, patterns: [PatternSpec, ...]}`. Errors are reported as
`file:line: reason` (PatternError) so a maintainer can fix a bad file without reading a traceback.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import regex

from repopilot import rx
from repopilot.engine.library.cache import Entry, LiteralCache
from repopilot.engine.library.cache import key as cache_key
from repopilot.engine.library.prefilter import required_literals, usable
from repopilot.errors import PatternError
from repopilot.records import INFRA_CATEGORIES, AssignedCategory, Kind

# The loaded form of a pattern file: immutable records built from data that passed the pydantic
# schema (engine/library/schema.py, the same fields and defaults) or from the sealed cache of such
# data, so a start-up with a cached library imports neither pydantic nor yaml (issue 11). They
# are NamedTuples: a frozen dataclass costs ~5x as much to define and to build (~6 ms of each
# start-up for 500 patterns and their examples). The fields without a default come first, as a
# NamedTuple needs; lists and dicts are never defaults (one would be shared): `_spec` fills them.


class MatchExample(NamedTuple):
    line: str
    captures: dict[str, str]


class ContextSpec(NamedTuple):
    """Lines kept around the evidence: `before`/`after` counts, or `after` until `until` matches."""

    before: int = 0
    after: int = 0
    until: str | None = None


class Examples(NamedTuple):
    match: list[MatchExample | str]
    no_match: list[str]


class PatternSpec(NamedTuple):
    """One pattern of the library, as validated (the YAML's field names)."""

    id: str
    category: AssignedCategory
    regex: str | list[str]
    title: str
    examples: Examples
    priority: int = 50
    confidence: float = 0.8
    hint: str = ""
    ambiguous: bool = False
    kind: Kind | None = None
    step: str | None = None
    context: ContextSpec | None = None
    prefilter: list[str] | None = None
    prefilter_regex: str | None = None  # RE2 syntax, unanchored: for patterns with no fixed word
    case_insensitive: bool = False
    # Where the format comes from: the tool's documentation URL or `owner/repo:path` of its own
    # tests. Optional so ad-hoc libraries load; `repopilot patterns lint` reports it missing.
    source: str | None = None
    # A line that only reports that something else failed (Gradle's `Execution failed for task`,
    # `npm ERR! Test failed`, `ELIFECYCLE`): it names the category when nothing specific matched,
    # and any non-wrapper hit in the same scope outranks it whatever the priorities.
    wrapper: bool = False
    # The line says why a test failed (pytest's `E   assert ...`, jest's `expect(received)...`, a
    # Go `x_test.go:N:` message, a JUnit exception): ranked just below the runner's test-name line,
    # so the engine can put it in evidence[0] with the test line after it.
    reason: bool = False


class PatternFile(NamedTuple):
    ecosystem: str
    patterns: list[PatternSpec]


def pattern_file(data: dict[str, Any]) -> PatternFile:
    """The records from validated data (libschema.validated's output, or the cache's copy of it,
    which leaves out the defaults); KeyError/TypeError when the data is not of that shape."""
    return PatternFile(ecosystem=data["ecosystem"], patterns=[_spec(d) for d in data["patterns"]])


def _spec(d: dict[str, Any]) -> PatternSpec:
    ex = d["examples"]
    examples = Examples(
        match=[
            m if isinstance(m, str) else MatchExample(m["line"], dict(m.get("captures", {})))
            for m in ex["match"]
        ],
        no_match=list(ex.get("no_match", [])),
    )
    context = d.get("context")
    rest = {k: v for k, v in d.items() if k not in ("examples", "context")}
    return PatternSpec(
        examples=examples, context=None if context is None else ContextSpec(**context), **rest
    )


@dataclass(frozen=True, slots=True)
class Pattern:
    """A compiled, validated pattern ready for the engine."""

    spec: PatternSpec
    source: str  # "file:line"
    ecosystem: str
    exprs: tuple[str, ...]  # the `regex` sources; compiled on first use (most never run on a log)
    flags: int
    step_re: regex.Pattern[str] | None
    until_re: regex.Pattern[str] | None
    # A line is a candidate when it contains one of `literals` (lowercased) or, for patterns with
    # no fixed word, when `needle_re` (RE2, case-insensitive) matches it.
    literals: tuple[str, ...]
    needle_re: str | None = None
    # compiled, once
    _regexes: list[regex.Pattern[str]] = field(default_factory=list, compare=False, repr=False)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def kind(self) -> str:
        if self.spec.kind:
            return self.spec.kind
        return "infra" if self.spec.category in INFRA_CATEGORIES else "code"

    @property
    def regexes(self) -> list[regex.Pattern[str]]:
        got = self._regexes
        if not got:  # (the scan asks per candidate line: compile once, then one attribute read)
            got.extend(_compiled(e, self.flags) for e in self.exprs)
        return got

    @property
    def specificity(self) -> int:
        return max(len(e) for e in self.exprs)


@functools.cache
def _compiled(expr: str, flags: int) -> regex.Pattern[str]:
    return regex.compile(expr, flags | regex.V0)


def default_dir() -> Path:
    """The built-in library: the checkout's `patterns/`, else the installed copy (the entry
    points pass REPOPILOT_PATTERNS's directory instead, when it is set)."""
    here = Path(__file__).resolve().parents[3] / "patterns"
    if here.is_dir():
        return here
    return Path(sys.prefix) / "share" / "repopilot" / "patterns"


def _compile(expr: str, where: str, pid: str, flags: int = 0) -> regex.Pattern[str]:
    try:
        return regex.compile(expr, flags | regex.V0)
    except regex.error as exc:
        raise PatternError(f"{where}: pattern {pid}: invalid regex {expr!r}: {exc}") from None


def _lines_of(node: Any) -> dict[int, int]:
    """Map pattern index -> 1-based line of its YAML mapping, for error messages."""
    import yaml

    out: dict[int, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "patterns" and isinstance(value, yaml.SequenceNode):
                for i, item in enumerate(value.value):
                    out[i] = item.start_mark.line + 1
    return out


def _parse_yaml(text: str) -> tuple[Any, Any]:
    """One parse: the node tree (for line numbers) and the data built from it."""
    import yaml  # only for a file the cache does not hold: ~13 ms of start-up otherwise

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)  # libyaml: 10x faster
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def load_file(path: Path) -> list[Pattern]:
    """Patterns of one file, fully validated: every regex compiled, literals derived."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PatternError(f"{path}: cannot read: {exc}") from None
    data, lines = _parse_file(path, text)
    return _build(path, pattern_file(data), lines, None)


def _parse_file(path: Path, text: str) -> tuple[dict[str, Any], dict[int, int]]:
    """The file's validated data (libschema.validated) and each pattern's line."""
    import yaml

    from repopilot.engine.library.schema import validated

    try:
        node, data = _parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise PatternError(f"{path}:{line}: invalid YAML: {problem}") from None
    lines = _lines_of(node) if node is not None else {}
    return validated(path, data, lines), lines


def _build(
    path: Path, pf: PatternFile, lines: dict[int, int], validated: dict[str, list[str]] | None
) -> list[Pattern]:
    """`validated` (cached for this exact file content) holds each pattern's derived literals:
    the checks that file already passed are skipped and regexes compile on first use."""
    out = []
    for i, spec in enumerate(pf.patterns):
        where = f"{path}:{lines.get(i, 1)}"
        flags = regex.IGNORECASE if spec.case_insensitive else 0
        exprs = [spec.regex] if isinstance(spec.regex, str) else spec.regex
        if validated is None or spec.id not in validated:
            for e in exprs:
                _compile(e, where, spec.id, flags)
        step_re = _compile(spec.step, where, spec.id, regex.IGNORECASE) if spec.step else None
        until = spec.context.until if spec.context else None
        until_re = _compile(until, where, spec.id) if until else None
        literals: tuple[str, ...]
        if spec.prefilter_regex:
            literals = ()
            if validated is None:
                _check_re2(spec.prefilter_regex, where, spec.id)
        elif spec.prefilter:
            literals = tuple(s.lower() for s in spec.prefilter)
            weak = [s for s in literals if not usable(s)]
            if weak:
                raise PatternError(
                    f"{where}: pattern {spec.id}: prefilter literal {weak[0]!r} is too common to "
                    "prefilter with (need 4+ characters, 3+ letters or digits, not a common word); "
                    "use a longer literal, or `prefilter_regex:` (RE2, unanchored, e.g. "
                    "'\\.go:\\d+:\\d+: ')"
                )
        elif validated is not None and spec.id in validated:
            literals = tuple(validated[spec.id])
        else:
            lits: list[str] = []
            for e in exprs:
                found = required_literals(e)
                if not found:
                    lits = []
                    break
                lits.extend(found)
            literals = tuple(dict.fromkeys(lits))
            if not literals:
                raise PatternError(
                    f"{where}: pattern {spec.id}: no selective literal can be derived from its "
                    "regex; add `prefilter: [...]` (strings one of which every match contains) or "
                    "`prefilter_regex:` (RE2, unanchored)"
                )
        out.append(
            Pattern(
                spec,
                where,
                pf.ecosystem,
                tuple(exprs),
                flags,
                step_re,
                until_re,
                literals,
                spec.prefilter_regex,
            )
        )
    return out


def _check_re2(expr: str, where: str, pid: str) -> None:
    """RE2 syntax, as RE2 reads it where google-re2 is installed (else as `regex` reads it)."""
    if expr.startswith("^") or expr.endswith("$"):
        raise PatternError(f"{where}: pattern {pid}: prefilter_regex must not be anchored")
    try:
        rx.check(expr)
    except rx.error as exc:
        raise PatternError(f"{where}: pattern {pid}: prefilter_regex is not RE2: {exc}") from None


def load_library(
    directory: Path | str | None = None, cache_dir: Path | None = None
) -> list[Pattern]:
    """Every `*.yaml` under the directory, validated; duplicate ids are an error. What loading
    proved is cached in `cache_dir` (engine/library/cache.py; None: the default place)."""
    root = Path(directory) if directory else default_dir()
    if not root.is_dir():
        raise PatternError(f"{root}: pattern directory not found")
    patterns: list[Pattern] = []
    seen: dict[str, str] = {}
    cache = LiteralCache(str(root.resolve()), cache_dir)
    keys: set[str] = set()
    for path in sorted(root.glob("*.yaml")) + sorted(root.glob("*.yml")):
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise PatternError(f"{path}: cannot read: {exc}") from None
        k = cache_key(content)
        keys.add(k)
        loaded = _cached(path, cache.get(k))
        if loaded is None:
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise PatternError(f"{path}: cannot read: {exc}") from None
            data, lines = _parse_file(path, text)
            loaded = _build(path, pattern_file(data), lines, None)
            cache.put(
                k,
                {
                    "file": data,
                    "lines": lines,
                    "literals": {p.id: list(p.literals) for p in loaded},
                },
            )
        for p in loaded:
            if p.id in seen:
                raise PatternError(
                    f"{p.source}: duplicate pattern id {p.id} (first at {seen[p.id]})"
                )
            seen[p.id] = p.source
            patterns.append(p)
    if not patterns:
        raise PatternError(f"{root}: no patterns found")
    cache.save(keys)
    return patterns


def _cached(path: Path, hit: Entry | None) -> list[Pattern] | None:
    """The patterns from a sealed cache entry: data that passed the schema when it was written
    (the seal says so), so neither yaml nor pydantic is needed; None for a miss, or for an entry
    of another shape (written before a field changed)."""
    if hit is None:
        return None
    try:
        pf = pattern_file(hit["file"])
        lines = {int(i): n for i, n in hit["lines"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return _build(path, pf, lines, hit["literals"])


def check_examples(p: Pattern) -> list[str]:
    """Run a pattern's own examples; return one message per failure (empty when all pass)."""
    from repopilot.logs.textnorm import body, display

    problems: list[str] = []
    for ex in p.spec.examples.match:
        line, want = (ex, {}) if isinstance(ex, str) else (ex.line, ex.captures)
        text = body(display(line))
        m = _first_match(p, text)
        if m is None:
            problems.append(f"{p.source}: {p.id}: example should match: {line!r}")
            continue
        if not prefilter_hits(p, text):
            problems.append(f"{p.source}: {p.id}: its prefilter misses: {line!r}")
        got = {k: v for k, v in m.groupdict().items() if v is not None}
        for key, value in want.items():
            if got.get(key) != value:
                problems.append(
                    f"{p.source}: {p.id}: capture {key!r} is {got.get(key)!r}, "
                    f"expected {value!r} in {line!r}"
                )
    for line in p.spec.examples.no_match:
        if _first_match(p, body(display(line))) is not None:
            problems.append(f"{p.source}: {p.id}: example should not match: {line!r}")
    return problems


def prefilter_hits(p: Pattern, text: str) -> bool:
    """Whether the per-pattern path would look at `text` for `p` (its needle is in the line)."""
    if p.needle_re:
        return rx.found(rx.searcher(p.needle_re), text)
    return any(lit in text.lower() for lit in p.literals)


def _first_match(p: Pattern, text: str) -> regex.Match[str] | None:
    for r in p.regexes:
        m = r.search(text, timeout=0.5)
        if m:
            return m
    return None
