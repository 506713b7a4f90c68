"""The import graph of repopilot/ keeps docs/ARCHITECTURE.md's floors: no import circle (imports inside
functions and under TYPE_CHECKING count: they are edges a reader must follow too), and every
import points down the floors (entry points -> pipeline -> github/engine/agent -> comment,
evidence, proposal, logs, llm, trace, origin -> safety, records, errors); the core never imports
PyGithub, openai, ollama or repopilot.github.

Read from the source with `ast`, so a module nobody imports at start-up is checked too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

PACKAGE = REPO_ROOT / "repopilot"

# Each top-level room of repopilot/ and its floor (docs/ARCHITECTURE.md "Floors"): a module may import its own
# floor or below. origin/, run_records, settings are rooms the Layout lists without a floor: they
# sit where what imports them and what they import put them.
FLOORS = {
    "__main__": 5,
    "cli": 5,
    "commands": 5,
    "action": 5,
    "pipeline": 4,
    "github": 3,
    "engine": 3,
    "agent": 3,
    "comment": 2,
    "evidence": 2,
    "proposal": 2,
    "logs": 2,
    "llm": 2,
    "trace": 2,
    "origin": 2,
    "report": 2,
    "safety": 1,
    "rx": 1,
    "records": 1,
    "run_records": 1,
    "settings": 1,
    "errors": 1,
    "__init__": 1,
}
ENTRY = {"action", "commands", "cli", "__main__"}
# The adapters: the only rooms that talk to a wire library (or to the API edge).
ADAPTERS = {"github", "llm", "action", "commands", "cli", "__main__", "pipeline"}
WIRE = {"github", "openai", "ollama"}


def _name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """(imported module, line) for every import in the file, at any depth: a `from X import Y`
    names the module X.Y when that is a module, else X."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the importing package
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for a in node.names:
                full = f"{base}.{a.name}"
                out.append((full if full in known else base, node.lineno))
    return out


def _graph() -> tuple[dict[str, set[str]], dict[str, list[tuple[str, int]]]]:
    mods = _modules()
    known = set(mods)
    raw = {n: _imports(n, p, known) for n, p in mods.items()}
    edges = {n: {m for m, _ in got if m in known and m != n} for n, got in raw.items()}
    return edges, raw


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_the_circle_finder_finds_a_circle_and_a_self_contained_graph_has_none():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_import_circle_in_repopilot():
    edges, _ = _graph()
    assert circles(edges) == []


def test_every_room_has_a_floor():
    rooms = {_room(m) for m in _modules()}
    assert rooms - set(FLOORS) == set(), "a new room of repopilot/: give it a floor in FLOORS"


def test_imports_point_down_the_floors():
    _, raw = _graph()
    known = set(_modules())
    up = []
    for name, got in raw.items():
        mine = FLOORS[_room(name)]
        for target, line in got:
            if target in known and FLOORS[_room(target)] > mine:
                up.append(f"{name}:{line} imports {target}")
    assert up == []


def test_nothing_below_the_entry_points_imports_them():
    _, raw = _graph()
    bad = [
        f"{name}:{line} imports {target}"
        for name, got in raw.items()
        if _room(name) not in ENTRY
        for target, line in got
        if target.startswith("repopilot.") and _room(target) in ENTRY
    ]
    assert bad == []


def test_the_core_never_imports_a_wire_library_or_the_api_edge():
    _, raw = _graph()
    bad = [
        f"{name}:{line} imports {target}"
        for name, got in raw.items()
        if _room(name) not in ADAPTERS
        for target, line in got
        if target.split(".")[0] in WIRE or target.startswith("repopilot.github")
    ]
    assert bad == []
    # and the adapters that may are the ones the Layout names for each library
    for name, got in raw.items():
        for target, line in got:
            if target.split(".")[0] in ("openai", "ollama"):
                assert name.startswith("repopilot.llm."), f"{name}:{line} imports {target}"


# The `fast` extra's libraries: every module but the set engine's imports its regexes through
# repopilot.rx, so a plain install (neither library) runs the whole product.
FAST = {"re2", "hyperscan"}
SET_ENGINE = {
    "repopilot.rx",
    "repopilot.engine.match.set_engine",
    "repopilot.engine.match.re2_lines",
    "repopilot.engine.match.hyperscan_pass",
}


def test_only_rx_and_the_set_engine_import_the_fast_extra():
    _, raw = _graph()
    bad = [
        f"{name}:{line} imports {target}"
        for name, got in raw.items()
        if name not in SET_ENGINE
        for target, line in got
        if target.split(".")[0] in FAST
    ]
    assert bad == []
