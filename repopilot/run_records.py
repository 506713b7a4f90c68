"""The records of a triage run that pydantic validates: proposals, rejections, origins, the
triage result, and the run trace (docs/CONTRACTS.md Contracts 4 and 5).

They are read back from JSON (a run's result file, a trace, the comment's marker), so they stay
pydantic models; `classify` never needs them, and importing pydantic costs it more start-up time
than its whole work on a small log (issue 11), so they are apart from repopilot/records.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.records import Origin, RejectReason, StepType, Verdict


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Proposal(Record):
    """A validated fix: the diff exactly as the model gave it and its SHA-256 (Contract 4)."""

    id: str
    diff: str
    sha256: str
    files: tuple[str, ...]
    diagnosis: str = ""
    confidence: float = 0.0


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


class BaselineRun(Record):
    """The base branch's last green run whose log of the same job was compared (issue 20): its
    lines were not taken as the cause. `url` is the run's page ("" when unknown)."""

    number: int
    url: str = ""


class SeenRecord(BaseModel):
    """One failed job the Action triaged, as the repository's memory keeps it (issue 28,
    docs/MEMORY.md): `seen.json` on the `repopilot-memory` branch holds a `SeenFile` of these.
    Unknown fields are ignored, so a later version's file still reads."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    signature: str  # repopilot/origin/signature.py's signature of the failure
    category: str
    decided_by: Literal["pattern", "llm", "none"]
    pattern_id: str | None = None
    learned: bool = False  # decided by the repository's learned pattern (Verdict.learned_from)
    title: str = ""
    pr: int | None = None  # the PR number; None for a run on a branch (push, schedule)
    branch: str  # the run's head branch
    on_default: bool  # the run was on the default branch, not a PR
    run_id: int
    run_url: str
    job: str
    job_url: str | None = None
    head_sha: str
    at: str  # ISO 8601 UTC, when recorded
    llm_tokens: int = 0  # prompt + completion tokens the triage of this job spent

    @property
    def key(self) -> tuple[int, str]:
        """One record per job of a run: a re-run attempt's record replaces the earlier one."""
        return self.run_id, self.job


class SeenFile(BaseModel):
    """The whole `seen.json`: records oldest first."""

    model_config = ConfigDict(extra="ignore")

    version: Literal[1] = 1
    records: list[SeenRecord] = Field(default_factory=list)

    @classmethod
    def parse(cls, raw: str | bytes) -> SeenFile:
        """`seen.json`'s text as a SeenFile; ValueError with one line (where and what) otherwise."""
        try:
            return cls.model_validate_json(raw)
        except ValidationError as exc:
            raise ValueError(first_error(exc)) from None


class SeenBefore(Record):
    """What the memory says about one failed job (issue 28), for the comment: earlier records
    with the same signature from other PRs (`prs`: the latest of each, newest first, at most
    MAX_SEEN_PRS of `pr_count`) and from the default branch (`default`: its oldest and newest
    such record, so `default[0]` is "since", of `default_runs` runs). `signature` is the one
    stored (redacted); `llm_tokens` what this job's own triage spent, recorded after posting."""

    signature: str
    prs: tuple[SeenRecord, ...] = ()
    pr_count: int = 0
    default: tuple[SeenRecord, ...] = ()
    default_runs: int = 0
    llm_tokens: int = 0


class TriageResult(Record):
    """A verdict plus what escalation added (Contract 4 RESULT)."""

    verdict: Verdict
    diagnosis: str | None = None
    escalated: bool = False
    proposal: Proposal | None = None
    rejected: tuple[Rejection, ...] = ()
    trace: str | None = None
    origin: OriginVerdict | None = None
    baseline_run: BaselineRun | None = None  # the Action compared with this green run (issue 20)
    seen: SeenBefore | None = None  # the repository's memory of this failure (issue 28)

    def contract(self) -> dict[str, Any]:
        out = self.verdict.contract()
        # The lines that explain the failure, as the comment shows them (pipeline.explained).
        out["context"] = [{"line": e.line, "text": e.text} for e in self.verdict.context]
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


def first_error(exc: ValidationError) -> str:
    """A validation error as one line: where (the dotted field path, or "top level") and what."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "top level"
    return f"{where}: {err['msg']}"
