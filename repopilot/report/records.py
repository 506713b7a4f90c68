"""The report's records (`repopilot report`, issue 28): what tally.py computes and the text,
Markdown and JSON forms show. Frozen dataclasses; `Report.contract()` is the JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Decider = Literal["pattern", "learned", "llm", "none"]
DECIDERS: tuple[Decider, ...] = ("pattern", "learned", "llm", "none")
TokenSource = Literal["traces", "store"]


@dataclass(frozen=True)
class Prices:
    """USD per million tokens, for prompt (input) and completion (output) tokens."""

    per_mtok_in: float
    per_mtok_out: float


@dataclass(frozen=True)
class SignatureRow:
    """One failure signature: how often and where it failed, named by its latest record."""

    signature: str
    count: int
    category: str
    title: str
    decided_by: Decider
    pattern_id: str | None
    first_seen: str
    last_seen: str
    prs: tuple[int, ...]
    on_default: int  # failures of it on the default branch
    default_branch: str | None  # that branch's name, when it failed there
    last_run_url: str
    last_job_url: str | None


@dataclass(frozen=True)
class Share:
    decided_by: Decider
    count: int
    percent: float  # of the window's failures, one decimal


@dataclass(frozen=True)
class Week:
    """One ISO week: `week` is `2026-W48`, `start` its Monday."""

    week: str
    start: str
    failures: int
    on_default: int
    llm_runs: int  # traces that called the model (or store records decided by or costing the LLM)
    tokens: int
    prompt_tokens: int | None  # None: the store's totals do not split them
    completion_tokens: int | None
    cost_usd: float | None  # None: no prices given, or no split to price


@dataclass(frozen=True)
class Report:
    since: str  # the first day of the window (a Monday)
    until: str  # the last day (a Sunday)
    weeks: tuple[Week, ...]
    failures: int
    signatures: int
    prs: int
    on_default: int
    top: tuple[SignatureRow, ...]
    shares: tuple[Share, ...]
    token_source: TokenSource
    tokens: int
    cost_usd: float | None
    priced: bool
    notes: tuple[str, ...]  # what was left out and why, one line each

    def contract(self) -> dict[str, Any]:
        """The JSON form (`--format json`)."""
        return asdict(self)
