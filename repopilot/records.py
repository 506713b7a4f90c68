"""Typed records passed between stages. Nothing here does I/O.

Every stage takes and returns these; dicts only appear at the wire (JSON out, YAML in).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

AssignedCategory = Literal[
    "test_failure",
    "compile_error",
    "lint_format",
    "type_check",
    "dependency_resolution",
    "import_error",
    "network",
    "timeout_cancelled",
    "runner_infra",
    "oom_disk",
    "permission_secret",
    "docker_build",
    "crash_segfault",
    "config_error",
    "other",
]
"""A category a pattern or the model may assign: the taxonomy without `unknown`/`no_failure`."""
CATEGORIES: tuple[str, ...] = get_args(AssignedCategory)
"""The assignable categories, in DESIGN.md's order (the prompt, the answer schema, lint)."""

Undecided = Literal["unknown", "no_failure"]
"""A failure nothing decides, or no failure at all: never assigned by a pattern or the model."""
Category = AssignedCategory | Undecided
"""The closed category taxonomy of DESIGN.md: every verdict's category is one of these."""
TAXONOMY: tuple[str, ...] = CATEGORIES + get_args(Undecided)
Kind = Literal["code", "infra", "flaky"]
DecidedBy = Literal["pattern", "llm", "none"]
EscalateMode = Literal["auto", "fixable"]
"""Which verdicts may go to the LLM (DESIGN.md Contract 4): auto = unknown/ambiguous only."""
ESCALATE_MODES: tuple[str, ...] = get_args(EscalateMode)

Origin = Literal["this_pr", "base_branch", "flaky", "infra", "undetermined"]
"""Whether a failed job's failure is the PR's own (issue 14; decided in repopilot/engine/origin.py)."""
ORIGINS: tuple[str, ...] = get_args(Origin)

# Infra-like categories never escalate to the LLM and never get a diff (DESIGN.md Contract 4).
INFRA_CATEGORIES: frozenset[str] = frozenset(
    {"network", "timeout_cancelled", "runner_infra", "oom_disk", "permission_secret"}
)


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Evidence(Record):
    """One physical line of the input: 1-based number as in Contract 1, text normalized."""

    line: int
    text: str


class Verdict(Record):
    """The classification of one job log (Contract 1 RESULT, plus what later stages need)."""

    source: str
    category: Category
    confidence: float = 0.0
    decided_by: DecidedBy = "none"
    pattern_id: str | None = None
    title: str = ""
    hint: str = ""
    evidence: tuple[Evidence, ...] = ()
    captures: dict[str, str] = Field(default_factory=dict)
    # Not in Contract 1 JSON, used downstream:
    kind: Kind | None = None
    ambiguous: bool = False
    step: str | None = None
    context: tuple[Evidence, ...] = ()
    job: str | None = None
    step_lines: tuple[int, int] | None = None  # first and last line of the failing step
    timeouts: tuple[str, ...] = ()  # pattern ids that hit the regex timeout on this log
    # evidence[0] is a failing test's assertion/error message and evidence[1] the test's line
    assertion_first: bool = False

    def contract(self) -> dict[str, Any]:
        """The exact Contract 1 RESULT object."""
        return {
            "source": self.source,
            "category": self.category,
            "confidence": round(self.confidence, 3),
            "decided_by": self.decided_by,
            "pattern_id": self.pattern_id,
            "title": self.title,
            "hint": self.hint,
            "evidence": [{"line": e.line, "text": e.text} for e in self.evidence],
            "captures": dict(self.captures),
            "job": self.job,
            "step": self.step,
        }

    @property
    def failed(self) -> bool:
        return self.category != "no_failure"


class Proposal(Record):
    """A validated fix: the diff exactly as the model gave it and its SHA-256 (Contract 4)."""

    id: str
    diff: str
    sha256: str
    files: tuple[str, ...]
    diagnosis: str = ""
    confidence: float = 0.0


RejectReason = Literal[
    "path-escape",
    "protected-path",
    "symlink",
    "submodule",
    "binary",
    "too-large",
    "parse-error",
    "does-not-apply",
    "deceptive",
    "not-validated",  # the run had no validator: a diff is never offered unchecked
    "not-recorded",  # a replay met a proposal its trace holds no verdict for
]
"""Why a diff was refused (DESIGN.md "Details the contracts fix", SECURITY.md §5)."""
REJECT_REASONS: tuple[str, ...] = get_args(RejectReason)


class Rejection(Record):
    """Why a proposed diff was refused: a short code (`protected-path`, ...) and a detail line."""

    reason: RejectReason
    detail: str


class OriginVerdict(Record):
    """A failed job's origin and what it was decided from (one line), with the base-branch run
    it points at and the run to re-run, when there are ones."""

    origin: Origin
    reason: str
    signature: str | None = None
    base_branch: str | None = None
    base_run_number: int | None = None
    base_run_url: str | None = None
    rerun_url: str | None = None
    requests: int = 0  # extra GitHub API requests the lookups for this run had made by then


class TriageResult(Record):
    """A verdict plus what escalation added (Contract 4 RESULT)."""

    verdict: Verdict
    diagnosis: str | None = None
    escalated: bool = False
    proposal: Proposal | None = None
    rejected: tuple[Rejection, ...] = ()
    trace: str | None = None
    origin: OriginVerdict | None = None

    def contract(self) -> dict[str, Any]:
        out = self.verdict.contract()
        if self.origin is not None:  # only where it was decided (Action, `triage --base-log`)
            out.update(origin=self.origin.origin, origin_detail=self.origin.model_dump())
        out.update(
            diagnosis=self.diagnosis,
            escalated=self.escalated,
            proposal=(
                None
                if self.proposal is None
                else {
                    "id": self.proposal.id,
                    "diff": self.proposal.diff,
                    "sha256": self.proposal.sha256,
                    "files": list(self.proposal.files),
                }
            ),
            rejected=[{"reason": r.reason, "detail": r.detail} for r in self.rejected],
            trace=self.trace,
        )
        return out


StepType = Literal["classify", "llm_call", "tool_call", "tool_result", "error", "decision"]


class AgentStep(Record):
    """One entry of a run trace (Contract 5)."""

    step_number: int
    timestamp: str
    type: StepType
    model: str | None = None
    tool_name: str | None = None
    arguments: Any = None
    result: Any = None
    error: str | None = None
    duration_ms: float = 0.0


class Usage(BaseModel):
    llm_calls: int = 0
    tool_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class RunTrace(BaseModel):
    """The whole trace file `.runs/<run_id>.json` (Contract 5)."""

    run_id: str
    goal: str
    started_at: str
    finished_at: str | None = None
    outcome: str | None = None
    steps: list[AgentStep] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
