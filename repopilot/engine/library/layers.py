"""Repository patterns on top of the built-in library (docs/CONTRACTS.md Contract 1 `--patterns DIR`,
`--no-builtin`; Contract 6).

A layer's pattern replaces the built-in one with the same id; the rest are added after it.
`tolerant_layer` is the Action's way to read a repository's own directory: a file that does not
load, or a pattern that is not safe for the engine, is left out with a warning, never an error.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from repopilot.engine.library.loader import Pattern, load_file, load_library
from repopilot.errors import PatternError

LEARNED = "learned from "  # how a learned pattern's `source:` starts (docs/CONTRACTS.md Contract 6)


def learned_from(p: Pattern) -> str | None:
    """A repository's learned pattern: its `source:` ("learned from <log>:<line>, ..."); None for
    any other pattern. Such a pattern outranks the built-in library (engine/verdict/
    pattern_verdict.py) and its verdict is decided."""
    src = p.spec.source or ""
    return src if src.startswith(LEARNED) else None


def layered(base: Sequence[Pattern], *layers: Sequence[Pattern]) -> list[Pattern]:
    """`base` with each layer on top, in order: a later pattern replaces an earlier one with its
    id (where the earlier one stood), new ids come after."""
    out: list[Pattern] = list(base)
    where = {p.id: i for i, p in enumerate(out)}
    for layer in layers:
        for p in layer:
            if p.id in where:
                out[where[p.id]] = p
            else:
                where[p.id] = len(out)
                out.append(p)
    return out


def load_layers(dirs: Sequence[Path | str], builtin: bool = True) -> list[Pattern]:
    """The built-in library (unless `builtin` is false) with each directory on top; every
    directory must load entirely (a PatternError names the file and line otherwise)."""
    return library_from(None, dirs, builtin)


@dataclass(frozen=True, slots=True)
class Layer:
    """What a tolerant read of one directory kept, and one warning per thing it left out."""

    patterns: tuple[Pattern, ...]
    warnings: tuple[str, ...]


def tolerant_layer(
    files: Sequence[Path], check: Callable[[Pattern], str | None] | None = None
) -> Layer:
    """Each file on its own: one that does not load is a warning; a pattern `check` objects to
    (a reason string) is a warning; duplicate ids keep the first."""
    kept: list[Pattern] = []
    warnings: list[str] = []
    seen: set[str] = set()
    for path in files:
        try:
            loaded = load_file(path)
        except PatternError as exc:
            warnings.append(f"pattern file skipped: {exc}")
            continue
        for p in loaded:
            why = check(p) if check else None
            if why:
                warnings.append(f"{p.source}: pattern {p.id} skipped: {why}")
            elif p.id in seen:
                warnings.append(f"{p.source}: pattern {p.id} skipped: duplicate id")
            else:
                seen.add(p.id)
                kept.append(p)
    return Layer(tuple(kept), tuple(warnings))


def library_from(
    base_dir: Path | str | None,
    layers: Sequence[Path | str] = (),
    builtin: bool = True,
    cache_dir: Path | None = None,
) -> list[Pattern]:
    """What `--patterns DIR ...` and `--no-builtin` ask for: the library at `base_dir` (default:
    the built-in one), unless `builtin` is false, with each layer directory on top. `cache_dir`:
    the loader's cache (engine/library/cache.py)."""
    if not builtin and not layers:
        raise PatternError("--no-builtin needs at least one --patterns DIR")
    base = load_library(base_dir, cache_dir) if builtin else []
    return layered(base, *(load_library(d, cache_dir) for d in layers))


def add_layer_options(p: argparse.ArgumentParser) -> None:
    """`--patterns DIR` (repeatable) and `--no-builtin` for classify, triage, context, learn."""
    p.add_argument(
        "--patterns",
        action="append",
        default=None,
        metavar="DIR",
        help="a directory of pattern files on top of the built-in library (repeatable; a pattern "
        "with a built-in pattern's id replaces it)",
    )
    p.add_argument(
        "--no-builtin", action="store_true", help="leave the built-in pattern library out"
    )
