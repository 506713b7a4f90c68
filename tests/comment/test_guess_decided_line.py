"""Issue 27: a pattern's verdict below the calibrated threshold is a best guess, and the comment's
"who decided" line says so instead of claiming that no pattern recognizes the failure."""

from __future__ import annotations

import pytest

from repopilot.comment.render import CommentContext, render
from repopilot.comment.sections import JobReport
from repopilot.records import Evidence, Verdict
from repopilot.run_records import TriageResult

pytestmark = pytest.mark.unit

JOB_URL = "https://github.com/octo/app/actions/runs/42/job/7"


def _body(decided_by: str, confidence: float) -> str:
    v = Verdict(
        source="job.log",
        category="compile_error",
        confidence=confidence,
        decided_by=decided_by,  # type: ignore[arg-type]
        pattern_id="cpp.compiler.error",
        title="compiler error",
        evidence=(Evidence(line=12, text="src/foo.c:3:5: error: expected ';'"),),
        step_lines=(1, 20),
        ambiguous=decided_by == "none",
    )
    job = JobReport(name="build", html_url=JOB_URL, result=TriageResult(verdict=v), step_number=2)
    ctx = CommentContext(repo="octo/app", run_id=42, head_sha="0" * 40, pr_number=9)
    return render([job], ctx)


def test_a_guess_names_its_pattern_and_says_it_is_not_decided():
    body = _body("none", 0.63)
    assert (
        "Not decided: a best guess from pattern ` cpp.compiler.error ` (confidence 63%), no LLM asked"
        in body
    )
    assert "no pattern recognizes" not in body
    assert "(a guess)" in body  # comment/origin.py is_guess: decided_by none with a category


def test_a_decided_verdict_says_decided_by_pattern():
    body = _body("pattern", 0.93)
    assert "Decided by pattern ` cpp.compiler.error ` (confidence 93%), without an LLM" in body
    assert "(a guess)" not in body
