"""The analyze job's result file: what the read-only job hands to the job that posts.

The split keeps the LLM key and the write token in different jobs (docs/THREAT_MODEL.md §1). The file is
validated strictly on read and must belong to the run of the event being handled.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.action.llm_status import LLMStatus
from repopilot.run_records import Rejection, TriageResult, first_error
from repopilot.safety.redact import clean_for_model


class ResultFileError(Exception):
    """The result file is missing, malformed, or from another run (one line)."""


class JobResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    name: str
    conclusion: str
    html_url: str | None = None
    step_number: int | None = None
    result: TriageResult


class RunResult(BaseModel):
    """Every failed job of one run attempt, in job order, with its triage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = 1
    repository: str
    run_id: int
    run_attempt: int
    run_url: str | None = None
    head_sha: str
    jobs: list[JobResult]
    llm: LLMStatus = Field(default_factory=LLMStatus)  # what the LLM did, from the job traces

    @property
    def results(self) -> list[TriageResult]:
        return [j.result for j in self.jobs]


def save(path: str | os.PathLike[str], result: RunResult) -> None:
    """Write the file (an artifact others can download): job names, attacker text in a fork's
    workflow, are cleaned and redacted like log text first (docs/THREAT_MODEL.md §19)."""
    result = result.model_copy(update={"jobs": [_clean_names(j) for j in result.jobs]})
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(result.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def _clean_names(job: JobResult) -> JobResult:
    v = job.result.verdict
    names = {k: clean_for_model(getattr(v, k)).text for k in ("job", "step") if getattr(v, k)}
    result = job.result.model_copy(update={"verdict": v.model_copy(update=names)})
    return job.model_copy(update={"name": clean_for_model(job.name).text, "result": result})


def load(path: str | os.PathLike[str], repository: str, run_id: int) -> RunResult:
    """Read and check the file; it must describe `run_id` of `repository`."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ResultFileError(f"result-file {path}: {exc.strerror or 'cannot read'}") from exc
    try:
        result = RunResult.model_validate_json(raw)
    except ValidationError as exc:
        raise ResultFileError(f"result-file {path}: {first_error(exc)}") from exc
    if result.run_id != run_id or result.repository.lower() != repository.lower():
        raise ResultFileError(
            f"result-file {path}: it is for run {result.run_id} of {result.repository}, "
            f"not run {run_id} of {repository}"
        )
    return result.model_copy(update={"jobs": [_recheck(j) for j in result.jobs]})


def _recheck(job: JobResult) -> JobResult:
    """Defense in depth for the job that holds the write token: a proposal is offered only if
    its hash is its diff's and the safety policy (docs/THREAT_MODEL.md §5) still passes without a checkout;
    otherwise it is moved to the rejected list."""
    from repopilot.proposal.diffread import Refused
    from repopilot.proposal.policy import check

    prop = job.result.proposal
    if prop is None:
        return job
    why = None
    if hashlib.sha256(prop.diff.encode("utf-8")).hexdigest() != prop.sha256:
        why = Rejection(reason="parse-error", detail="the diff does not match its sha256")
    else:
        try:
            check(prop.diff)
        except Refused as exc:
            why = Rejection(reason=exc.reason, detail=f"re-checked before posting: {exc.detail}")
    if why is None:
        return job
    result = job.result.model_copy(
        update={"proposal": None, "rejected": (*job.result.rejected, why)}
    )
    return job.model_copy(update={"result": result})
