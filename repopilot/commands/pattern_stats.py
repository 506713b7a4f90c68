"""`repopilot patterns stats`: how many patterns the library holds per category and per kind of
`source:` (where the format each pattern reads is documented).

Source kinds (the forms engine/library/schema.py accepts):
- `docs-url`: a documentation page (an http(s) URL that is not a file in a repository);
- `repo-file`: a file in the tool's own repository, written `owner/repo:path`;
- `repo-url`: the same by URL (`github.com/<owner>/<repo>/blob|raw|tree/...`,
  `raw.githubusercontent.com/...`, GitLab's `/-/blob/`);
- `learned`: a repository's own pattern, `learned from <file>:<line>` (Contract 6);
- `none`: no `source:` (`patterns lint` reports it).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal, get_args

from repopilot.engine.library.loader import Pattern

SourceKind = Literal["docs-url", "repo-file", "repo-url", "learned", "none"]
SOURCE_KINDS: tuple[str, ...] = get_args(SourceKind)

_REPO_FILE = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*:\S")
_REPO_URL = re.compile(
    r"^https?://(?:www\.)?(?:github\.com/[^/\s]+/[^/\s]+/(?:blob|raw|tree)/"
    r"|raw\.githubusercontent\.com/"
    r"|gitlab\.com/\S+/-/(?:blob|raw|tree)/)",
    re.I,
)


def source_kind(source: str | None) -> SourceKind:
    """The kind of a pattern's `source:` value."""
    text = (source or "").strip()
    if not text:
        return "none"
    if text.startswith("learned from "):
        return "learned"
    if _REPO_URL.match(text):
        return "repo-url"
    if re.match(r"^https?://", text, re.I):
        return "docs-url"
    return "repo-file" if _REPO_FILE.match(text) else "none"


@dataclass(frozen=True, slots=True)
class Stats:
    """Pattern counts: in all, per category, per source kind, and per (category, kind)."""

    total: int
    categories: dict[str, int]
    kinds: dict[str, int]
    by_category: dict[str, dict[str, int]]

    def as_json(self) -> dict[str, Any]:
        return {
            "patterns": self.total,
            "per_category": self.categories,
            "per_source_kind": self.kinds,
            "per_category_and_source_kind": self.by_category,
        }


def stats(patterns: list[Pattern]) -> Stats:
    pairs = [(p.spec.category, source_kind(p.spec.source)) for p in patterns]
    cats = Counter(c for c, _ in pairs)
    kinds: Counter[str] = Counter(k for _, k in pairs)
    by_cat: dict[str, dict[str, int]] = {}
    for (c, k), n in sorted(Counter(pairs).items()):
        by_cat.setdefault(c, {})[k] = n
    return Stats(
        total=len(patterns),
        categories=dict(sorted(cats.items(), key=lambda kv: (-kv[1], kv[0]))),
        kinds={k: kinds[k] for k in SOURCE_KINDS if kinds[k]},
        by_category=by_cat,
    )


def render(s: Stats) -> str:
    """A table: one row per category, a column per source kind, then the totals."""
    kinds = [k for k in SOURCE_KINDS if k in s.kinds]
    width = max([len(c) for c in s.categories] + [len("category"), len("all")])
    lines = [f"{s.total} patterns"]
    lines.append(f"  {'category':<{width}} {'all':>5} " + " ".join(f"{k:>9}" for k in kinds))
    for cat, n in s.categories.items():
        row = s.by_category.get(cat, {})
        cells = " ".join(f"{row.get(k, 0):>9}" for k in kinds)
        lines.append(f"  {cat:<{width}} {n:>5} {cells}")
    totals = " ".join(f"{s.kinds[k]:>9}" for k in kinds)
    lines.append(f"  {'all':<{width}} {s.total:>5} {totals}")
    share = ", ".join(f"{k} {s.kinds[k]} ({100 * s.kinds[k] / s.total:.0f}%)" for k in kinds)
    lines.append(f"by source kind: {share}" if s.total else "by source kind: none")
    return "\n".join(lines)
