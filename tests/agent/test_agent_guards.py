"""The agent's guards (one Limits, one clock, a fresh RunState per run) and a reusable Agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.agent.guards import Guards
from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.outcome import LimitReached
from repopilot.agent.schema import parse_arguments
from repopilot.agent.tools import Toolbox
from repopilot.llm.base import ChatResponse, ToolsUnsupported
from repopilot.llm.scripted import ScriptedLLM
from repopilot.run_records import Rejection, Usage
from repopilot.trace import TraceWriter
from tests.agent.test_agent_support import answer, call, make_repo, reply


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def guards(**limits) -> tuple[Guards, ManualClock]:
    clock = ManualClock()
    return Guards(Limits(**limits), clock, Usage()), clock


@pytest.mark.unit
def test_wall_clock_counts_from_the_start_of_the_run():
    g, clock = guards(wall_clock_s=10.0)
    clock.now += 9.9
    assert g.before_model_call() is False
    clock.now += 0.1
    with pytest.raises(LimitReached) as stop:
        g.before_model_call()
    assert stop.value.reason == "wall-clock"


@pytest.mark.unit
def test_token_budget_counts_estimates_when_the_provider_reports_none():
    g, _ = guards(max_tokens=100)
    g.count_model_call(ChatResponse(text="x" * 40), prompt_chars=360)  # 90 + 10 estimated
    assert (g.state.usage.prompt_tokens, g.state.usage.completion_tokens) == (90, 10)
    with pytest.raises(LimitReached) as stop:
        g.before_model_call()
    assert stop.value.reason == "token-budget"


@pytest.mark.unit
def test_steps_run_out_into_one_final_request():
    g, _ = guards(max_steps=2)
    assert [g.before_model_call() for _ in range(3)] == [False, False, True]
    assert g.state.steps == 2


@pytest.mark.unit
def test_repeats_are_reminded_then_stopped():
    g, _ = guards(max_repeats=3)
    args = parse_arguments("list_files", {"path": "src"})
    assert g.repeated("list_files", args) is None
    assert "already called list_files" in (g.repeated("list_files", args) or "")
    assert g.repeated("list_files", parse_arguments("list_files", {})) is None  # other arguments
    with pytest.raises(LimitReached, match="3 times"):
        g.repeated("list_files", args)


@pytest.mark.unit
def test_format_errors_in_a_row_stop_and_a_usable_call_resets_them():
    g, _ = guards(max_format_errors=2)
    g.unusable_reply("bad json")
    g.usable_call()
    g.unusable_reply("bad json")
    with pytest.raises(LimitReached) as stop:
        g.unusable_reply("bad json")
    assert stop.value.reason == "format-errors"


@pytest.mark.unit
def test_output_budget_and_proposals():
    g, _ = guards(run_output_bytes=10, max_proposals=2, max_calls_per_reply=1)
    assert g.output_spent() is None
    g.count_output("0123456789", redactions=2)
    assert "per-run output budget" in (g.output_spent() or "") and g.state.redactions == 2
    assert g.may_run(0) and not g.may_run(1)
    no = Rejection(reason="parse-error", detail="x")
    assert g.rejected(no) is True and g.rejected(no) is False


@pytest.mark.integration  # git: a real checkout for the tools
def test_an_agent_runs_twice_with_nothing_left_over(tmp_path: Path):
    repo = make_repo(tmp_path / "repo")
    first = [
        ToolsUnsupported("no tools here"),  # the first run falls back to JSON-in-text ...
        ChatResponse(text='{"action": "list_files", "action_input": {"path": "src"}}'),
        ChatResponse(text='{"action": "list_files", "action_input": {"path": "src"}}'),
        ChatResponse(text='{"diagnosis": "first", "category": "test_failure"}'),
    ]
    second = [reply(call("list_files", path="src")), answer("second")]
    llm = ScriptedLLM([*first, *second])
    writer = TraceWriter(directory=str(tmp_path / "runs"))
    agent = Agent(llm, Toolbox(str(repo)), trace=writer, limits=Limits(max_repeats=3))

    one = agent.run("goal one")
    assert one.diagnosis == "first" and one.usage.tool_calls == 2
    assert agent.guards.state.calls  # the repeat was counted in the first run
    two = agent.run("goal two")

    assert two.diagnosis == "second" and two.stop_reason == "answer"
    assert two.usage.llm_calls == 2 and two.usage.tool_calls == 1  # not the first run's counts
    assert two.trace is not None and two.trace != one.trace  # a trace of its own
    assert agent.trace.trace.goal == "goal two"
    # ... and the second run starts on native tools again, its list_files is not a repeat
    assert llm.calls[-2].tools is not None
    errors = [s.error or "" for s in agent.trace.trace.steps if s.type == "error"]
    assert not any("repeated-call" in e for e in errors)
