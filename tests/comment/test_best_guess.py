"""Issue 27: a guess nobody diagnosed shows its ranked candidates, each linked to its log line, in
one short block ("Best guess, most likely first:"); a decided verdict and an LLM's diagnosis keep
the single key line."""

from __future__ import annotations

import re

import pytest

from repopilot.comment.render import CommentContext, render
from repopilot.comment.sections import JobReport
from repopilot.records import Category, DecidedBy, Evidence, Verdict
from repopilot.run_records import TriageResult

pytestmark = pytest.mark.unit

JOB_URL = "https://github.com/octo/app/actions/runs/42/job/7"
EVIDENCE = (
    Evidence(line=15, text="check schema-v2 did not pass: column users.email is nullable"),
    Evidence(line=18, text="make: *** [Makefile:7: check] Error 1"),
    Evidence(line=9, text="Error response from daemon: No such container: ci-db"),
)


def _body(
    decided_by: DecidedBy,
    category: Category = "test_failure",
    pattern_id: str | None = "cpp.make.error",
    evidence: tuple[Evidence, ...] = EVIDENCE,
    diagnosis: str | None = None,
) -> str:
    v = Verdict(
        source="job.log",
        category=category,
        confidence=0.4 if decided_by == "none" else 0.9,
        decided_by=decided_by,
        pattern_id=pattern_id,
        title="make: a recipe failed",
        evidence=evidence,
        context=tuple(Evidence(line=n, text=f"line {n}") for n in range(13, 19)),
        step="Run make check",
        step_lines=(5, 20),
        ambiguous=decided_by == "none",
    )
    result = TriageResult(verdict=v, diagnosis=diagnosis, escalated=diagnosis is not None)
    job = JobReport(name="check", html_url=JOB_URL, result=result, step_number=3)
    ctx = CommentContext(repo="octo/app", run_id=42, head_sha="0" * 40, pr_number=9)
    return render([job], ctx)


def _candidates(body: str) -> list[str]:
    return re.findall(r"^\d\. .*$", body, flags=re.M)


def test_a_patterns_guess_lists_its_candidates_ranked_and_linked():
    body = _body("none")
    assert "Candidates, most likely first in ` Run make check `:" in body
    assert "Best guess, most likely first" not in body  # the decided line says it already
    rows = _candidates(body)
    assert len(rows) == 3
    assert rows[0].startswith(f"1. [step 3, line 11](<{JOB_URL}#step:3:11>) (marked `>` below):")
    assert "check schema-v2 did not pass" in rows[0]
    assert rows[1].startswith(f"2. [step 3, line 14](<{JOB_URL}#step:3:14>):")
    assert "No such container" in rows[2] and "#step:3:5>" in rows[2]
    assert "Key line" not in body


def test_an_unknown_failure_says_best_guess_once_with_its_candidates():
    body = _body("none", category="unknown", pattern_id=None)
    assert "Best guess, most likely first in ` Run make check `:" in body
    assert len(_candidates(body)) == 3


def test_a_decided_verdict_keeps_its_one_key_line():
    body = _body("pattern")
    assert "Key line" in body and not _candidates(body)
    assert "most likely first" not in body


def test_an_llm_diagnosis_keeps_its_one_key_line():
    body = _body("llm", diagnosis="The schema check fails: users.email became nullable.")
    assert "most likely first" not in body and "Key line" in body


def test_a_guess_with_one_line_is_its_key_line():
    body = _body("none", evidence=EVIDENCE[:1])
    assert "most likely first" not in body and "Key line" in body
