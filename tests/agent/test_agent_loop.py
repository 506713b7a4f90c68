"""The ReAct loop driven by the scripted provider over real tools on temporary git repos."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.prompt import PROMPT_VERSION
from repopilot.agent.tools import Toolbox
from repopilot.llm.base import LLMError, ToolCall, ToolsUnsupported
from repopilot.llm.scripted import ScriptedLLM
from repopilot.trace import TraceWriter
from tests.agent.test_agent_support import (
    CANARY,
    FIX_DIFF,
    WORKFLOW_DIFF,
    answer,
    call,
    policy_validator,
    reply,
    sent_text,
)

pytestmark = pytest.mark.integration

GOAL = "A CI job failed: tests/test_calc.py::test_add - assert -0 == 4. Diagnose it."


def agent(repo: Path, script, tmp_path: Path, **kwargs) -> tuple[Agent, ScriptedLLM]:
    llm = ScriptedLLM(script)
    tools = Toolbox(str(repo), base_ref="main", log=lambda: iter([(1, "FAILED test_add")]))
    trace = TraceWriter(directory=str(tmp_path / "runs"))
    kwargs.setdefault("validate", policy_validator(repo))
    return Agent(llm, tools, trace=trace, **kwargs), llm


def tool_messages(llm: ScriptedLLM, call_index: int) -> list[str]:
    return [m.content for m in llm.calls[call_index].messages if m.role == "tool"]


def errors(a: Agent) -> list[str]:
    return [s.error for s in a.trace.trace.steps if s.type == "error"]


def test_diff_then_fix_is_validated_and_offered(repo, tmp_path):
    script = [
        reply(call("git_diff")),
        reply(call("read_file", path="src/calc.py")),
        reply(
            call(
                "propose_fix",
                diagnosis="add() subtracts",
                category="test_failure",
                diff=FIX_DIFF,
                confidence=0.9,
            )
        ),
    ]
    a, llm = agent(repo, script, tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "proposal" and out.proposal is not None
    assert out.proposal.diff == FIX_DIFF and out.proposal.files == ("src/calc.py",)
    assert out.proposal.diagnosis == "add() subtracts" and out.proposal.confidence == 0.9
    assert (out.diagnosis, out.category, out.confidence) == ("add() subtracts", "test_failure", 0.9)
    assert out.usage.llm_calls == 3 and out.usage.tool_calls == 3
    assert out.usage.prompt_tokens == 300 and out.usage.completion_tokens == 30
    # observations are answered by tool_call_id, fenced, and carry the tool output
    second = llm.calls[1].messages
    assert second[0].role == "system" and second[1].content == GOAL
    assert second[-1].role == "tool" and second[-1].tool_call_id == "c1"
    assert "+    return a - b" in second[-1].content
    assert second[-1].content.startswith("<untrusted-git-diff-output-")  # fenced as data
    assert llm.calls[0].tools is not None and len(llm.calls[0].tools) == 7


def test_reply_without_tool_calls_is_the_answer(repo, tmp_path):
    a, _ = agent(repo, [answer("sub instead of add", "test_failure", 0.7)], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "answer" and out.proposal is None
    assert (out.diagnosis, out.category, out.confidence) == (
        "sub instead of add",
        "test_failure",
        0.7,
    )


@pytest.mark.parametrize(
    "text, category, confidence",
    [
        ('{"diagnosis": "d", "category": "made_up", "confidence": 0.5}', None, 0.5),
        ('{"diagnosis": "d", "category": "network", "confidence": 7}', "network", None),
        ('Here:\n```json\n{"diagnosis": "d", "category": "other"}\n```', "other", None),
        ("The test fails because add subtracts.", None, None),
    ],
)
def test_final_answer_is_schema_validated(repo, tmp_path, text, category, confidence):
    a, _ = agent(repo, [reply(text=text)], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "answer" and out.diagnosis
    assert (out.category, out.confidence) == (category, confidence)


@pytest.mark.parametrize(
    "bad_call, told",
    [
        (call("delete_repo", path="x"), "unknown tool 'delete_repo'"),
        (
            ToolCall(
                id="c1",
                name="read_file",
                raw_arguments="{path: x",
                arguments_error="Expecting property name",
            ),
            "not valid JSON",
        ),
        (call("read_file", path="README.md", encoding="utf8"), "unknown parameter 'encoding'"),
        (call("read_file", start_line=1), "missing parameter 'path'"),
    ],
)
def test_bad_tool_calls_become_observations(repo, tmp_path, bad_call, told):
    a, llm = agent(repo, [reply(bad_call), answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "answer"
    observation = tool_messages(llm, 1)[-1]
    assert told in observation and observation.startswith("error:")
    assert any(told in e for e in errors(a))


def test_repeated_call_is_told_then_stopped(repo, tmp_path):
    same = [reply(call("read_file", f"c{i}", path="src/calc.py")) for i in range(3)]
    a, llm = agent(repo, [*same, answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "repeated-call" and out.diagnosis is None
    assert "already called read_file" in tool_messages(llm, 2)[-1]
    assert [s.type for s in a.trace.trace.steps].count("tool_result") == 1  # executed once
    assert llm.remaining == 1


def test_consecutive_format_errors_stop_the_run(repo, tmp_path):
    bad = [reply(call("nope", f"c{i}")) for i in range(3)]
    a, llm = agent(repo, [*bad, answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "format-errors" and llm.remaining == 1


def test_a_valid_call_resets_the_format_error_count(repo, tmp_path):
    script = [
        reply(call("nope", "a")),
        reply(call("nope", "b")),
        reply(call("list_files", "c")),
        reply(call("nope", "d")),
        reply(call("nope", "e")),
        answer(),
    ]
    a, _ = agent(repo, script, tmp_path)
    assert a.run(GOAL).stop_reason == "answer"


def test_empty_reply_is_a_format_error(repo, tmp_path):
    a, llm = agent(repo, [reply(text="  "), answer()], tmp_path)
    assert a.run(GOAL).stop_reason == "answer"
    assert "empty reply" in llm.calls[1].messages[-1].content


def test_token_budget_stops_the_run(repo, tmp_path):
    script = [
        reply(call("list_files", f"c{i}", path=p), tokens=(30_000, 500)) for i, p in enumerate("ab")
    ]
    a, llm = agent(repo, [*script, reply(call("git_log")), answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "token-budget" and out.usage.llm_calls == 2
    assert llm.remaining == 2


class ManualClock:
    """An injectable clock that only moves when the test says so (nothing sleeps)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SlowLLM(ScriptedLLM):
    """The scripted model, each answer taking `seconds` on the test's clock."""

    def __init__(self, script, clock: ManualClock, seconds: float):
        super().__init__(script)
        self.clock, self.seconds = clock, seconds

    def chat_with_tools(self, messages, tools):
        self.clock.now += self.seconds
        return super().chat_with_tools(messages, tools)


def test_wall_clock_stops_the_run(repo, tmp_path):
    script = [
        reply(call("list_files", f"c{i}", path=p)) for i, p in enumerate(["src", "tests", "."])
    ]
    clock = ManualClock()
    llm = SlowLLM([*script, answer()], clock, seconds=150.0)  # 300 s reached after two calls
    trace = TraceWriter(directory=str(tmp_path / "runs"))
    a = Agent(llm, Toolbox(str(repo)), trace=trace, clock=clock)
    out = a.run(GOAL)
    assert out.stop_reason == "wall-clock" and out.usage.llm_calls == 2
    assert any("wall-clock" in e for e in errors(a))
    # durations come from the same clock: each model call took 150 s, each tool 0 s
    llm_steps = [s for s in a.trace.trace.steps if s.type == "llm_call"]
    assert [s.duration_ms for s in llm_steps] == [150_000.0, 150_000.0]
    assert all(s.duration_ms == 0.0 for s in a.trace.trace.steps if s.type == "tool_result")


def test_max_steps_then_one_final_request_without_tools(repo, tmp_path):
    script = [reply(call("list_files", "a")), reply(call("git_log", "b")), answer("from memory")]
    a, llm = agent(repo, script, tmp_path, limits=Limits(max_steps=2))
    out = a.run(GOAL)
    assert out.stop_reason == "max-steps" and out.diagnosis == "from memory"
    assert (
        llm.calls[-1].tools is None and "used all tool steps" in llm.calls[-1].messages[-1].content
    )


def test_max_steps_without_a_usable_final_answer(repo, tmp_path):
    script = [reply(call("list_files", "a")), reply(text="")]
    a, _ = agent(repo, script, tmp_path, limits=Limits(max_steps=1))
    out = a.run(GOAL)
    assert out.stop_reason == "max-steps" and out.diagnosis is None


def test_llm_error_stops_with_llm_unavailable(repo, tmp_path):
    a, _ = agent(repo, [reply(call("list_files")), LLMError("http-500", "server error")], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "llm-unavailable" and out.diagnosis is None
    assert any("http-500" in e for e in errors(a))


def test_tools_unsupported_switches_to_json_text(repo, tmp_path):
    script = [
        ToolsUnsupported("model does not support tools"),
        reply(
            text='Let me look.\n```json\n{"thought": "t", "action": "read_file", '
            '"action_input": {"path": "src/calc.py"}}\n```'
        ),
        reply(text="I think {not json"),
        reply(
            text='{"thought": "done", "action": "final_answer", "action_input": '
            '{"diagnosis": "add subtracts", "category": "test_failure", "confidence": 0.6}}'
        ),
    ]
    a, llm = agent(repo, script, tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "answer" and out.category == "test_failure"
    assert llm.calls[0].tools is not None and all(c.tools is None for c in llm.calls[1:])
    assert "action_input" in llm.calls[1].messages[0].content  # tools rendered as instructions
    seen = llm.calls[2].messages[-1]
    assert seen.role == "user" and "return a - b" in seen.content
    assert "could not be used" in llm.calls[3].messages[-1].content  # parse failure observed
    protocols = [s.arguments["protocol"] for s in a.trace.trace.steps if s.type == "llm_call"]
    assert protocols == ["tools", "json-text", "json-text", "json-text"]


def fix(diff: str | None, call_id: str = "f"):
    args = {"diagnosis": "add subtracts", "category": "test_failure", "confidence": 0.8}
    return reply(call("propose_fix", call_id, **args, **({"diff": diff} if diff else {})))


def test_workflow_diff_is_rejected_then_retried(repo, tmp_path):
    a, llm = agent(repo, [fix(WORKFLOW_DIFF, "f1"), fix(FIX_DIFF, "f2")], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "proposal" and out.proposal.files == ("src/calc.py",)
    assert [r.reason for r in out.rejected] == ["protected-path"]
    assert "rejected (protected-path)" in tool_messages(llm, 1)[-1]


def test_second_rejection_offers_no_diff(repo, tmp_path):
    bad_context = FIX_DIFF.replace("a - b", "a * b")
    a, _ = agent(repo, [fix(WORKFLOW_DIFF, "f1"), fix(bad_context, "f2"), answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "rejected" and out.proposal is None
    assert [r.reason for r in out.rejected] == ["protected-path", "does-not-apply"]
    assert out.diagnosis == "add subtracts"


def test_propose_fix_without_diff_or_validator(repo, tmp_path):
    a, _ = agent(repo, [fix(None)], tmp_path)
    assert a.run(GOAL).stop_reason == "answer"
    a, _ = agent(repo, [fix(FIX_DIFF, "1"), fix(FIX_DIFF, "2")], tmp_path, validate=None)
    out = a.run(GOAL)
    assert out.proposal is None and {r.reason for r in out.rejected} == {"not-validated"}


def test_secret_canary_in_repo_file_never_reaches_the_model(repo, tmp_path):
    (repo / "config.env").write_text(f"TOKEN={CANARY}\nOTHER=1\n")
    script = [
        reply(call("read_file", "a", path="config.env")),
        reply(call("search_code", "b", pattern="TOKEN")),
        reply(call("get_log", "c")),
        answer(),
    ]
    a, llm = agent(repo, script, tmp_path)
    a.tools.log = lambda: iter([(1, f"export GH={CANARY}")])
    out = a.run(GOAL + f" token {CANARY}")
    assert out.stop_reason == "answer"
    sent = sent_text(llm)
    assert "OTHER=1" in sent and CANARY not in sent
    assert CANARY not in Path(out.trace).read_text()
    results = [s.result for s in a.trace.trace.steps if s.type == "tool_result"]
    assert all(r["redactions"] >= 1 for r in results)


def test_old_observations_are_shrunk_but_goal_kept(repo, tmp_path):
    (repo / "long.txt").write_text("filler line\n" * 400)
    script = [
        reply(call("read_file", f"c{i}", path="long.txt", start_line=i + 1)) for i in range(4)
    ]
    a, llm = agent(repo, [*script, answer()], tmp_path, limits=Limits(keep_exchanges=2))
    a.run(GOAL)
    last = llm.calls[-1].messages
    tools = [m.content for m in last if m.role == "tool"]
    assert last[1].content == GOAL
    assert "dropped to keep the context" in tools[0] and "dropped" in tools[1]
    assert "filler line" in tools[2] and "filler line" in tools[3]


def test_trace_records_prompt_version_and_model_per_call(repo, tmp_path):
    a, _ = agent(repo, [reply(call("list_files")), answer()], tmp_path)
    out = a.run(GOAL)
    data = json.loads(Path(out.trace).read_text())
    calls = [s for s in data["steps"] if s["type"] == "llm_call"]
    assert [c["model"] for c in calls] == ["scripted", "scripted"]
    assert all(c["arguments"]["prompt_version"] == PROMPT_VERSION == "v3" for c in calls)
    assert data["outcome"] == "answer" and data["steps"][-1]["type"] == "decision"


def test_tools_unsupported_twice_is_llm_unavailable(repo, tmp_path):
    a, llm = agent(repo, [ToolsUnsupported("no tools"), ToolsUnsupported("still no")], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "llm-unavailable" and len(llm.calls) == 2


def test_the_same_rejected_diff_twice_ends_with_the_diagnosis(repo, tmp_path):
    a, _ = agent(repo, [fix(WORKFLOW_DIFF, "f1"), fix(WORKFLOW_DIFF, "f2"), answer()], tmp_path)
    out = a.run(GOAL)
    assert out.stop_reason == "rejected" and out.diagnosis == "add subtracts"
    assert [r.reason for r in out.rejected] == ["protected-path", "protected-path"]


def test_real_proposal_validator_rejects_a_workflow_edit_then_accepts_the_fix(repo, tmp_path):
    from repopilot.proposal.validate import validator_for

    script = [fix(WORKFLOW_DIFF, "f1"), fix(FIX_DIFF, "f2")]
    a, llm = agent(repo, script, tmp_path, validate=validator_for(repo))
    out = a.run(GOAL)
    assert out.stop_reason == "proposal" and out.proposal.files == ("src/calc.py",)
    assert out.proposal.diff == FIX_DIFF and out.proposal.diagnosis == "add subtracts"
    assert [r.reason for r in out.rejected] == ["protected-path"]
    assert "rejected (protected-path)" in tool_messages(llm, 1)[-1]


def test_token_budget_holds_when_the_provider_reports_no_usage(repo, tmp_path):
    big = GOAL + " " + "context " * 40_000  # ~80k tokens by the 4-characters estimate
    a, llm = agent(repo, [reply(call("list_files"), tokens=(0, 0)), answer()], tmp_path)
    out = a.run(big)
    assert out.stop_reason == "token-budget" and out.usage.prompt_tokens > 60_000
    assert llm.remaining == 1


def test_too_many_calls_in_one_reply_are_answered_not_run(repo, tmp_path):
    many = [call("read_file", f"c{i}", path="README.md", start_line=i + 1) for i in range(7)]
    a, llm = agent(repo, [reply(*many), answer()], tmp_path, limits=Limits(max_calls_per_reply=5))
    assert a.run(GOAL).stop_reason == "answer"
    tools = [m for m in llm.calls[1].messages if m.role == "tool"]
    assert [m.tool_call_id for m in tools] == [f"c{i}" for i in range(7)]
    assert all(m.content.startswith("not run") for m in tools[5:])
    assert not any(m.content.startswith("not run") for m in tools[:5])


def test_propose_fix_category_outside_the_taxonomy_is_ignored(repo, tmp_path):
    args = {"diagnosis": "d", "category": "cosmic_rays", "confidence": 0.4}
    a, _ = agent(repo, [reply(call("propose_fix", **args))], tmp_path)
    out = a.run(GOAL)
    assert (out.stop_reason, out.diagnosis, out.category, out.confidence) == (
        "answer",
        "d",
        None,
        0.4,
    )


def test_unwritable_trace_gives_no_trace_path(repo, tmp_path):
    (tmp_path / "file").write_text("x")
    llm = ScriptedLLM([answer()])
    trace = TraceWriter(directory=str(tmp_path / "file" / "runs"))
    out = Agent(llm, Toolbox(str(repo)), trace=trace).run(GOAL)
    assert out.stop_reason == "answer" and out.trace is None and trace.save_error


def test_a_secret_written_by_the_model_is_redacted_in_the_outcome(repo, tmp_path):
    a, _ = agent(repo, [answer(f"use token {CANARY} here")], tmp_path)
    out = a.run(GOAL)
    assert CANARY not in out.diagnosis and "[REDACTED:" in out.diagnosis


def test_json_text_mode_accepts_the_plain_json_answer(repo, tmp_path):
    script = [ToolsUnsupported("no tools"), answer("plain json", "lint_format", 0.5)]
    a, _ = agent(repo, script, tmp_path)
    out = a.run(GOAL)
    assert (out.stop_reason, out.diagnosis, out.category) == ("answer", "plain json", "lint_format")
