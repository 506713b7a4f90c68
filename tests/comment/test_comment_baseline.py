"""The green run a failure was compared with is said once, linked (issues 20 and 23)."""

from __future__ import annotations

import pytest

from repopilot.records import BASELINE_NOTE
from repopilot.run_records import BaselineRun, TriageResult
from tests.comment.test_comment_render import ctx, job, render, verdict

pytestmark = pytest.mark.unit


def test_the_comparison_is_said_once_with_its_link() -> None:
    v = verdict(hint=f"Fix the failing assertion. {BASELINE_NOTE}")
    run = BaselineRun(number=42, url="https://github.example/o/r/actions/runs/902")
    body = render([job(TriageResult(verdict=v, baseline_run=run))], ctx())
    assert "Compared with the last green run [#42]" in body
    assert body.count("Compared with") == 1
    assert "Fix the failing assertion" in body


def test_without_a_green_run_the_engine_note_stays() -> None:
    v = verdict(hint=f"Fix the failing assertion. {BASELINE_NOTE}")
    body = render([job(TriageResult(verdict=v))], ctx())
    assert "Compared with the base log" in body  # Markdown-escaped, so not the note verbatim
