"""The labelled rows `repopilot eval` reads: the gha corpus's LABELS.csv (one failed log per row,
its category and key line), and any CSV with named columns (one clear line when it cannot be read).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from repopilot.errors import EvalError
from repopilot.records import TAXONOMY, Category

GHA_COLUMNS = ("id", "ecosystem", "category", "key_line_no")


@dataclass(frozen=True, slots=True)
class GhaCase:
    id: str
    path: Path
    ecosystem: str
    category: Category
    accepted: frozenset[str]
    key_line: int | None
    repo: str = ""


def read_rows(path: Path, required: tuple[str, ...]) -> list[dict[str, str]]:
    csv.field_size_limit(1 << 30)  # LogChunks keeps whole chunks in one field
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in required if c not in (reader.fieldnames or ())]
            if missing:
                raise EvalError(f"{path}: missing column(s) {', '.join(missing)}")
            return list(reader)
    except OSError as exc:
        raise EvalError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise EvalError(f"{path}: not a readable CSV: {exc}") from None


def line_number(value: str, where: str) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise EvalError(f"{where}: not a line number: {value!r}") from None


def gha_cases(directory: Path, labels: Path) -> list[GhaCase]:
    cases = []
    for i, row in enumerate(read_rows(labels, GHA_COLUMNS), start=2):
        where = f"{labels}:{i}"
        category = row["category"].strip()
        if category not in TAXONOMY:
            raise EvalError(f"{where}: category {category!r} is not in the taxonomy")
        accepted = {category}
        if (row.get("ambiguous") or "").strip().lower() in ("yes", "true", "1", "y"):
            if (row.get("secondary") or "").strip():
                accepted.add(row["secondary"].strip())
        cases.append(
            GhaCase(
                id=row["id"].strip(),
                path=directory / "logs" / f"{row['id'].strip()}.log",
                ecosystem=row["ecosystem"].strip(),
                category=cast(Category, category),
                accepted=frozenset(accepted),
                key_line=line_number(row["key_line_no"], where),
                repo=(row.get("repo") or "").strip(),
            )
        )
    return cases
