"""GitHub problem matchers (the JSON `setup-*` actions register with `::add-matcher::`) as
patterns of the library (issue 21): `repopilot patterns import-matcher FILE.json`.

A single-line matcher (one entry in `pattern`) becomes one pattern: its regexp (JavaScript
syntax, which Python reads for these; `(?<name>` becomes `(?P<name>`), its numbered groups named
after the properties that point at them (`file`, `line`, `column`, `severity`, `code`,
`message`), a severity group limited to `error` (a warning is not why a job failed), one match
example generated from the regex and checked, and the library's checks (it loads, its examples
pass, the engine's exact RE2 route). A multi-line matcher (several entries, or `loop`) is left
out with the reason: a pattern sees one line.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from repopilot.engine.learn.check import safe_route
from repopilot.engine.library.loader import Pattern, load_file
from repopilot.errors import PatternError

PROPERTIES = ("file", "line", "column", "severity", "code", "message")
# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]


@dataclass(frozen=True, slots=True)
class Imported:
    """The pattern file's data (the YAML wire form), the loaded patterns, what was left out."""

    data: dict[str, Any]
    patterns: tuple[Pattern, ...]
    skipped: tuple[str, ...]


def import_matchers(doc: Any, source: str, category: str, where: str) -> Imported:
    matchers = doc.get("problemMatcher") if isinstance(doc, dict) else None
    if not isinstance(matchers, list):
        raise PatternError(f"{where}: no `problemMatcher` list: not a problem matcher file")
    specs: list[dict[str, Any]] = []
    skipped: list[str] = []
    for i, m in enumerate(matchers):
        owner = str(m.get("owner", f"matcher{i}")) if isinstance(m, dict) else f"matcher{i}"
        steps = m.get("pattern") if isinstance(m, dict) else None
        if isinstance(steps, dict):
            steps = [steps]
        if not isinstance(steps, list) or not steps:
            skipped.append(f"{owner}: no `pattern`")
            continue
        if len(steps) > 1 or steps[0].get("loop"):
            skipped.append(
                f"{owner}: a multi-line matcher ({len(steps)} lines): a pattern sees one line"
            )
            continue
        try:
            specs.append(_spec(owner, steps[0], source, category))
        except ValueError as exc:
            skipped.append(f"{owner}: {exc}")
    kept: list[Pattern] = []
    good: list[dict[str, Any]] = []
    for spec in specs:
        why, p = _check(spec)
        if why:
            skipped.append(f"{spec['id']}: {why}")
        else:
            assert p is not None
            kept.append(p)
            good.append(spec)
    return Imported({"ecosystem": "matchers", "patterns": good}, tuple(kept), tuple(skipped))


def _spec(owner: str, step: dict[str, Any], source: str, category: str) -> dict[str, Any]:
    regexp = step.get("regexp")
    if not isinstance(regexp, str) or not regexp:
        raise ValueError("no `regexp`")
    names = {int(step[k]): k for k in PROPERTIES if isinstance(step.get(k), int)}
    regex = _error_only(_named(regexp.replace("(?<", "(?P<").replace("(?P<=", "(?<=")
                               .replace("(?P<!", "(?<!"), names))  # fmt: skip
    try:
        example = _example(regex)
    except RecursionError:  # groups nested past the parser's recursion limit
        raise ValueError("its regexp is nested too deep") from None
    except (re.error, ValueError) as exc:
        raise ValueError(f"its regexp is not one Python reads ({exc})") from None
    slug = re.sub(r"[^a-z0-9]+", "-", owner.lower()).strip("-") or "matcher"
    title = f"{owner}: " + ("{message}" if "message" in names.values() else "problem")
    if "file" in names.values():
        title += " ({file})"
    spec: dict[str, Any] = {
        "id": f"matcher.{slug}",
        "category": category,
        "source": source,
        "regex": regex,
        "title": title,
        "examples": {"match": [example], "no_match": ["a line no problem matcher takes"]},
    }
    return spec


def _named(regexp: str, names: dict[int, str]) -> str:
    """Numbered capture groups named after the matcher's properties that point at them."""
    out, i, group, in_class = [], 0, 0, False
    while i < len(regexp):
        c = regexp[i]
        if c == "\\":
            out.append(regexp[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(" and not regexp.startswith("?", i + 1):
            group += 1
            if group in names:
                out.append(f"(?P<{names[group]}>")
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _error_only(regex: str) -> str:
    """`(?P<severity>error|warning|info)` -> `(?P<severity>error)` (also `[Ee]rror`, `ERROR`)."""

    def pick(m: re.Match[str]) -> str:
        alts = m.group(1).split("|")
        keep = [a for a in alts if re.sub(r"\[(\w)\w\]", r"\1", a).lower() == "error"]
        return f"(?P<severity>{'|'.join(keep)})" if keep else m.group(0)

    return re.sub(r"\(\?P<severity>([^()]*)\)", pick, regex)


def _example(regex: str) -> str:
    """A short line the regex matches, built from its parse tree (checked by the caller)."""
    text = "".join(_gen(list(sre.parse(regex))))
    if not re.search(regex, text):
        raise ValueError("no example line could be made from it")
    return text


def _gen(items: list[_Node]) -> list[str]:
    out: list[str] = []
    for op, av in items:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is C.ANY:
            out.append("a")
        elif op is C.IN:
            out.append(_class(av))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, _hi, sub = av
            out.extend(_gen(list(sub)) * max(lo, 1))
        elif op is C.SUBPATTERN:
            out.extend(_gen(list(av[-1])))
        elif op is C.BRANCH:
            out.extend(_gen(list(av[1][0])))
        elif op is C.CATEGORY:
            out.append(_category(av))
    return out


def _class(items: list[_Node]) -> str:
    if items and items[0][0] is C.NEGATE:
        banned = {chr(v) for op, v in items if op is C.LITERAL}
        if any(op is C.CATEGORY and v is C.CATEGORY_SPACE for op, v in items):
            banned |= {" ", "\t"}
        return next(c for c in "ab1_-" if c not in banned)
    op, v = items[0]
    if op is C.LITERAL:
        return chr(v)
    if op is C.RANGE:
        return chr(v[0])
    return _category(v)


def _category(v: Any) -> str:
    return {C.CATEGORY_DIGIT: "1", C.CATEGORY_SPACE: " ", C.CATEGORY_WORD: "a"}.get(v, "a")


def _check(spec: dict[str, Any]) -> tuple[str | None, Pattern | None]:
    """Loads as the library loads it (with an RE2 prefilter when it has no fixed word) and takes
    the engine's exact route; a reason otherwise."""
    import yaml

    with tempfile.TemporaryDirectory(prefix="repopilot-matcher-") as tmp:
        path = Path(tmp) / "m.yaml"
        for attempt in range(2):
            path.write_text(yaml.safe_dump({"ecosystem": "matchers", "patterns": [spec]}), "utf-8")
            try:
                p = load_file(path)[0]
                break
            except PatternError as exc:
                if attempt or "no selective literal" not in str(exc):
                    return str(exc).rsplit(": ", 1)[-1], None
                spec["prefilter_regex"] = spec["regex"].strip("^$")
    why = safe_route(p)
    return (why, None) if why else (None, p)
