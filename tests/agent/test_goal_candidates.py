"""Issue 27: the agent's first message lists the verdict's candidate cause lines, ranked (the
engine's distinct candidates, engine/verdict/candidates.py), redacted and fenced like every log
text, so the model starts from them; a v1 goal (replaying an old trace) renders as it did."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repopilot.agent.prompt import PROMPT_VERSION, render_goal
from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.records import Evidence, Verdict
from tests.agent.test_agent_support import CANARY

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "


def _listed(goal: str) -> list[str]:
    block = re.search(
        r"<untrusted-candidate-lines-\w+>\n(.*?)</untrusted-candidate-lines", goal, re.S
    )
    assert block is not None, goal
    return block.group(1).splitlines()


def test_the_goal_lists_the_engines_candidates_in_rank_order(tmp_path: Path):
    # pytest -q --tb=no with pytest-cov's --cov-fail-under (both tools' documented output)
    body = [
        "..F.F.F                                                                  [100%]",
        "FAIL Required test coverage of 90% not reached. Total coverage: 72.50%",
        "=========================== short test summary info ============================",
        "FAILED tests/test_cart.py::test_total - assert 3 == 4",
        "FAILED tests/test_cart.py::test_empty - assert 0 == 1",
        "3 failed, 2 passed in 0.12s",
    ]
    lines = [
        "##[group]Run pytest -q --tb=no --cov=shop --cov-fail-under=90",
        "pytest -q --tb=no --cov=shop --cov-fail-under=90",
        "##[endgroup]",
        *body,
        "##[error]Process completed with exit code 1.",
    ]
    log = tmp_path / "job.log"
    log.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    (v,) = Classifier(load_library()).classify_path(log)
    listed = _listed(render_goal(v, "window", base_known=False))
    assert listed[0] == f"1. line {v.evidence[0].line}: {v.evidence[0].text}"
    assert listed[1].startswith("2. line 5: FAIL Required test coverage of 90% not reached")
    assert len(listed) == min(3, len(v.evidence))


def test_candidates_are_redacted_and_fenced():
    v = Verdict(
        source="job.log",
        category="unknown",
        evidence=(
            Evidence(line=7, text="Error: push refused"),
            Evidence(line=9, text=f"curl -H 'Authorization: Bearer {CANARY}' failed"),
        ),
    )
    goal = render_goal(v, "window", base_known=True)
    listed = _listed(goal)
    assert listed[0] == "1. line 7: Error: push refused"
    assert listed[1].startswith("2. line 9: ") and CANARY not in goal


def test_no_evidence_lists_none_and_v1_has_no_candidates():
    v = Verdict(source="job.log", category="unknown")
    assert _listed(render_goal(v, "window", base_known=False)) == ["(none)"]
    assert PROMPT_VERSION == "v3"
    old = render_goal(v, "window", base_known=False, version="v1")
    assert "candidate" not in old and "<untrusted-log-excerpt-" in old
