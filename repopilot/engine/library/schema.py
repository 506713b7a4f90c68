"""The schema of a pattern file, checked with pydantic: only when a file is not in the sealed
cache (engine/library/cache.py), so `classify` on a known library never imports pydantic (issue 11).

The models mirror the frozen records of engine/library/loader.py field for field (names, types and
defaults; tests/test_startup_imports.py compares them): a file that validates here is turned
into those records, and the cache keeps the validated data to rebuild them without this module.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from repopilot.errors import PatternError
from repopilot.records import AssignedCategory, Kind

# `source:` forms: a documentation URL, or a file in a public repository (`owner/repo:path`),
# or, for a repository's own pattern (docs/CONTRACTS.md Contract 6), `learned from <file>:<line>`.
SOURCE_RE = re.compile(
    r"^(?:https?://[^\s/]+\.[^\s/]+(?:/\S*)?"
    r"|[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*:[^\s:][^\s]*"
    r"|learned from \S.*:\d+)$"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MatchExample(_Strict):
    line: str
    captures: dict[str, str] = Field(default_factory=dict)


class ContextSpec(_Strict):
    """Lines kept around the evidence: `before`/`after` counts, or `after` until `until` matches."""

    before: int = Field(default=0, ge=0, le=50)
    after: int = Field(default=0, ge=0, le=200)
    until: str | None = None


class Examples(_Strict):
    match: list[MatchExample | str] = Field(min_length=1)
    no_match: list[str] = Field(default_factory=list, min_length=1)


class PatternSpec(_Strict):
    """What each field means: engine/library/loader.py's PatternSpec."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$")
    category: AssignedCategory
    regex: str | list[str]
    priority: int = Field(default=50, ge=0, le=100)
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    title: str
    hint: str = ""
    ambiguous: bool = False
    kind: Kind | None = None
    step: str | None = None
    context: ContextSpec | None = None
    prefilter: list[str] | None = None
    prefilter_regex: str | None = None
    case_insensitive: bool = False
    source: str | None = None
    wrapper: bool = False
    reason: bool = False
    examples: Examples

    @field_validator("source")
    @classmethod
    def _source_form(cls, v: str | None) -> str | None:
        if v is not None and not SOURCE_RE.match(v):
            raise ValueError("source must be an http(s) URL or `owner/repo:path`")
        return v

    @field_validator("regex")
    @classmethod
    def _non_empty(cls, v: str | list[str]) -> str | list[str]:
        if not v or (isinstance(v, list) and not all(isinstance(x, str) and x for x in v)):
            raise ValueError("regex must be a non-empty string or a list of them")
        return v


class PatternFile(_Strict):
    ecosystem: str
    patterns: list[PatternSpec]


def validated(path: Path, data: Any, lines: dict[int, int]) -> dict[str, Any]:
    """The file's data once it passed the schema, as JSON-ready values without the defaults
    (what the cache stores); a `file:line: field: reason` PatternError otherwise."""
    try:
        pf = PatternFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        line = 1
        if len(loc) >= 2 and loc[0] == "patterns" and isinstance(loc[1], int):
            line = lines.get(loc[1], 1)
        where = ".".join(str(x) for x in loc)
        raise PatternError(f"{path}:{line}: {where}: {err['msg']}") from None
    return pf.model_dump(mode="json", exclude_defaults=True)
