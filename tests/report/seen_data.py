"""Seen-before records and run traces written for the report's tests (tmp_path files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from repopilot.run_records import RunTrace, SeenFile, SeenRecord, Usage


def record(
    signature: str,
    at: str,
    *,
    decided_by: str = "pattern",
    learned: bool = False,
    pr: int | None = None,
    category: str = "test_failure",
    title: str = "",
    run_id: int = 1,
    llm_tokens: int = 0,
) -> SeenRecord:
    return SeenRecord.model_validate(
        {
            "signature": signature,
            "category": category,
            "decided_by": decided_by,
            "pattern_id": signature.split("|")[0] if decided_by == "pattern" else None,
            "learned": learned,
            "title": title,
            "pr": pr,
            "branch": "main" if pr is None else f"pr-{pr}",
            "on_default": pr is None,
            "run_id": run_id,
            "run_url": f"https://github.example/o/r/actions/runs/{run_id}",
            "job": "test",
            "job_url": f"https://github.example/o/r/actions/runs/{run_id}/job/{run_id + 100}",
            "head_sha": "a" * 40,
            "at": at,
            "llm_tokens": llm_tokens,
        }
    )


def trace(run_id: str, started_at: str, prompt: int, completion: int, calls: int = 1) -> RunTrace:
    return RunTrace(
        run_id=run_id,
        goal="triage",
        started_at=started_at,
        usage=Usage(llm_calls=calls, prompt_tokens=prompt, completion_tokens=completion),
    )


def write_store(path: Path, records: list[SeenRecord]) -> Path:
    path.write_text(SeenFile(records=records).model_dump_json(indent=1), encoding="utf-8")
    return path


def write_trace(directory: Path, t: RunTrace) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{t.run_id}.json"
    path.write_text(json.dumps(t.model_dump(mode="json")), encoding="utf-8")
    return path


# Two ISO weeks of a small repository (2026-W47: Nov 16-22, W48: Nov 23-29):
# the flaky login test three times (two PRs and main), a dependency failure twice (learned
# pattern), a crash the LLM decided once, one failure nothing decided.
def sample() -> list[SeenRecord]:
    login = "python-pytest-failed|test=tests/test_api.py::test_login"
    dep = "npm-eresolve|package=react"
    return [
        record(login, "2026-11-17T10:00:00Z", pr=11, title="test_login failed", run_id=1),
        record(
            dep,
            "2026-11-18T09:00:00Z",
            learned=True,
            pr=12,
            category="dependency_resolution",
            title="could not resolve react",
            run_id=2,
        ),
        record(
            "unknown|line=segfault",
            "2026-11-19T12:00:00Z",
            decided_by="llm",
            pr=12,
            category="crash_segfault",
            title="segfault",
            run_id=3,
            llm_tokens=3000,
        ),
        record(login, "2026-11-24T08:00:00Z", pr=None, title="test_login failed", run_id=4),
        record(
            dep,
            "2026-11-25T09:00:00Z",
            learned=True,
            pr=13,
            category="dependency_resolution",
            title="could not resolve react",
            run_id=5,
        ),
        record(
            "unknown|line=weird",
            "2026-11-26T09:00:00Z",
            decided_by="none",
            pr=13,
            category="unknown",
            run_id=6,
        ),
        record(login, "2026-11-27T23:59:59Z", pr=13, title="test_login failed", run_id=7),
    ]


def as_json(records: list[SeenRecord]) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in records]
