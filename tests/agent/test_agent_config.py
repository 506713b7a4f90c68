"""Limits from the environment, and the versioned prompt files."""

from __future__ import annotations

import pytest

from repopilot.agent.limits import Limits
from repopilot.agent.prompt import PROMPT_VERSION, load, render_goal, system_prompt
from repopilot.records import Evidence, Verdict
from repopilot.settings import Settings
from tests.agent.test_agent_support import CANARY

pytestmark = pytest.mark.unit


def test_limits_defaults_match_the_design():
    limits = Limits()
    assert (limits.max_steps, limits.max_tokens, limits.wall_clock_s) == (12, 60_000, 300.0)


def test_limits_from_env():
    env = {
        "REPOPILOT_MAX_STEPS": "5",
        "REPOPILOT_MAX_TOKENS": "9000",
        "REPOPILOT_WALL_CLOCK_S": "2.5",
    }
    got = Limits.configured(Settings.from_env(env).agent)
    assert got == Limits(max_steps=5, max_tokens=9000, wall_clock_s=2.5)
    assert Limits.configured(Settings.from_env({}).agent) == Limits()


@pytest.mark.parametrize("value", ["many", "0", "-3"])
def test_bad_limit_names_the_variable(value):
    with pytest.raises(ValueError, match="REPOPILOT_MAX_STEPS"):
        Settings.from_env({"REPOPILOT_MAX_STEPS": value})


def test_system_prompt_lists_the_taxonomy_and_the_fence_rule():
    text = system_prompt()
    assert "test_failure, compile_error" in text and "<untrusted-" in text
    assert '{"diagnosis": "...", "category": "...", "confidence": 0.0}' in text


def test_unknown_prompt_version_is_a_clear_error():
    assert PROMPT_VERSION == "v3" and load("goal") != load("goal", "v2")
    assert load("system") == load("system", "v2")  # v3 changed only the goal
    with pytest.raises(FileNotFoundError, match="prompt system version v999"):
        load("system", "v999")
    with pytest.raises(FileNotFoundError, match="prompt goal version 3"):
        load("goal", "3")


def test_goal_says_when_the_tools_have_no_checkout():
    verdict = Verdict(source="job.log", category="unknown", evidence=(Evidence(line=1, text="x"),))
    with_files = render_goal(verdict, "window", base_known=False)
    assert "Repository checkout for the file and git tools: yes" in with_files
    without = render_goal(verdict, "window", base_known=False, checkout=False)
    assert (
        "checkout for the file and git tools: none (a fork's code is never checked out" in without
    )
    assert "propose no diff" in without and "propose no diff" not in with_files


def test_goal_carries_verdict_step_and_a_redacted_fenced_window():
    verdict = Verdict(
        source="job.log",
        category="unknown",
        job="build",
        step="Run pytest",
        evidence=(Evidence(line=7, text="E   boom"),),
    )
    window = f"      7  E   boom\n      8  token={CANARY}\n"
    goal = render_goal(verdict, window, base_known=True)
    assert "Failing step: Run pytest" in goal and "Deterministic verdict: unknown" in goal
    assert "PR base known for git_diff: yes" in goal
    assert "<untrusted-log-excerpt-" in goal and "E   boom" in goal and CANARY not in goal
