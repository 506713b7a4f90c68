"""The pipeline asks for each failed job's origin before any LLM (issue 14): `base_branch` and
`flaky` jobs are not escalated under escalate=auto, and the origin is in the job's trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.llm.scripted import ScriptedLLM
from repopilot.origin.decide import BaseJob, OriginFacts, decide
from repopilot.origin.signature import signature_text
from repopilot.pipeline import Escalation, triage
from repopilot.records import Verdict
from repopilot.run_records import OriginVerdict

pytestmark = pytest.mark.unit

UNKNOWN = (
    "Run make deploy\n"
    "deploy: uploading artifact 3f2a9c81b7d2 to 10.1.2.3:8443 (took 1.52s)\n"
    "something unexpected went wrong at 2026-12-01T07:50:16Z\n"
    "##[error]Process completed with exit code 2.\n"
)


def hook_with_base(conclusion: str, same: bool = True):
    """An origin hook whose base branch's latest run ends as `conclusion` (same failure or not)."""
    seen: list[Verdict] = []

    def hook(verdict: Verdict) -> OriginVerdict:
        seen.append(verdict)
        sig = signature_text(verdict)
        base = BaseJob(7, "https://github.com/o/r/actions/runs/7", conclusion, sig if same else "x")
        return decide(OriginFacts(verdict.category, sig, base_branch="main", base=(base,)))

    hook.seen = seen  # type: ignore[attr-defined]
    return hook


def run(tmp_path: Path, hook, mode="auto"):
    log = tmp_path / "job.log"
    log.write_text(UNKNOWN, encoding="utf-8")
    llm = ScriptedLLM([])  # any call is recorded, then fails (script exhausted)
    how = Escalation(llm, mode=mode, validator=None)
    [result] = triage(str(log), tmp_path, how, trace_dir=tmp_path / "runs", origin=hook)
    return result, llm


def test_base_branch_failure_is_not_sent_to_the_llm(tmp_path):
    hook = hook_with_base("failure")
    result, llm = run(tmp_path, hook)
    assert result.origin is not None and result.origin.origin == "base_branch"
    assert llm.calls == [] and result.escalated is False
    trace = json.loads(Path(result.trace).read_text())
    decisions = [s["result"] for s in trace["steps"] if s["type"] == "decision"]
    assert decisions[0]["event"] == "origin" and decisions[0]["signature"].startswith("unknown|")
    assert decisions[-1] == {"escalated": False, "reason": "origin-base-branch"}
    assert hook.seen[0].decided_by == "none"  # the deterministic verdict, before any model


def test_flaky_failure_is_not_sent_to_the_llm(tmp_path):
    result, llm = run(tmp_path, hook_with_base("failure", same=False))
    assert result.origin.origin == "undetermined" and llm.calls  # sanity: this one is asked

    def flaky(verdict: Verdict) -> OriginVerdict:
        return decide(OriginFacts(verdict.category, None, attempts=("success",)))

    result, llm = run(tmp_path, flaky)
    assert result.origin.origin == "flaky" and llm.calls == []


def test_escalate_fixable_still_asks_about_base_branch_failures(tmp_path):
    result, llm = run(tmp_path, hook_with_base("failure"), mode="fixable")
    assert result.origin.origin == "base_branch"
    assert llm.calls and result.escalated is True


def test_this_pr_failures_escalate_as_before(tmp_path):
    result, llm = run(tmp_path, hook_with_base("success"))
    assert result.origin.origin == "this_pr" and llm.calls and result.escalated


def test_no_hook_no_origin(tmp_path):
    result, _ = run(tmp_path, None)
    assert result.origin is None and "origin" not in result.contract()
