"""Where a learned pattern goes in a directory of pattern files, and what leaves it (docs/
CONTRACTS.md Contract 6): `repopilot learn --out DIR` and the Action's `/repopilot learn` pull
request apply the same changes.

- ONE pattern per id: the learned pattern replaces the pattern with its id where that stands
  (a widened pattern stays in its file; in a file of several patterns only its entry changes);
  another entry with that id in another file is removed (the library refuses a directory that
  holds an id twice, and the Action keeps only the first). A new id gets `<id>.yaml`.
- A learned pattern the new example contradicts (`Learned.retired`: it decides that log on
  another line than the one the maintainer named) leaves the directory: its entry, or its file
  when it held nothing else. Only a learned pattern (`source: learned from ...`) is ever removed.

Files are given and returned as text by name; a file that does not parse is left alone. A file
rewritten entry by entry keeps its data, not its comments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from repopilot.engine.library.layers import LEARNED


@dataclass(frozen=True, slots=True)
class Placed:
    """`changes`: file name -> its new text (None: delete the file); `target`: the file the
    learned pattern is in; `removed`: (id, file name) of each entry taken out, the retired ones
    and duplicates of the learned id."""

    changes: dict[str, str | None]
    target: str
    removed: tuple[tuple[str, str], ...] = field(default=())


def place(
    files: Mapping[str, str], learned: str, pattern_id: str, retired: Sequence[str] = ()
) -> Placed:
    """The changes to the directory `files` (name -> text) that put the one-pattern file
    `learned` (its id `pattern_id`) in and the `retired` learned patterns out."""
    docs = {name: _parse(text) for name, text in files.items()}
    holding = [n for n in sorted(docs) if pattern_id in _ids(docs[n])]
    target = holding[0] if holding else _free(files, pattern_id)
    entry = _parse(learned)
    new_spec = _specs(entry)[0] if entry is not None and _specs(entry) else None
    out: dict[str, str | None] = {}
    removed: list[tuple[str, str]] = []
    gone = {r for r in retired if r != pattern_id}
    for name in sorted(docs):
        doc = docs[name]
        specs = _specs(doc)
        if doc is None or not specs:
            continue
        keep: list[Any] = []
        changed = False
        for spec in specs:
            sid = spec.get("id") if isinstance(spec, dict) else None
            if sid == pattern_id and name == target and new_spec is not None:
                keep.append(new_spec)
                changed = True
            elif sid == pattern_id and name != target:
                removed.append((pattern_id, name))  # a second entry with that id
                changed = True
            elif sid in gone and _learned(spec):
                removed.append((sid, name))
                changed = True
            else:
                keep.append(spec)
        if not changed:
            continue
        if name == target and len(keep) == 1 and keep[0] is new_spec:
            out[name] = learned  # the file is the learned pattern's alone: as it was rendered
        elif not keep:
            out[name] = None
        else:
            out[name] = _dump({**doc, "patterns": keep}, files[name])
    if target not in out:
        out[target] = learned
    return Placed(out, target, tuple(removed))


def _free(files: Mapping[str, str], pattern_id: str) -> str:
    """`<id>.yaml`, or `<id>-N.yaml` when a file of another content has that name."""
    name, n = f"{pattern_id}.yaml", 2
    while name in files:
        name, n = f"{pattern_id}-{n}.yaml", n + 1
    return name


def _parse(text: str) -> dict[str, Any] | None:
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


def _specs(doc: dict[str, Any] | None) -> list[Any]:
    specs = doc.get("patterns") if doc is not None else None
    return specs if isinstance(specs, list) else []


def _ids(doc: dict[str, Any] | None) -> set[str]:
    return {s["id"] for s in _specs(doc) if isinstance(s, dict) and isinstance(s.get("id"), str)}


def _learned(spec: Any) -> bool:
    return isinstance(spec, dict) and str(spec.get("source", "")).startswith(LEARNED)


def _dump(data: dict[str, Any], was: str) -> str:
    """`data` in the form the file had (JSON is YAML too: the library reads either)."""
    if was.lstrip().startswith("{"):
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
