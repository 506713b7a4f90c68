"""Contract 5 traces: file shape, atomic saves after every step, summary, `trace show` / `replay`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.tools import Toolbox
from repopilot.cli import main
from repopilot.llm.base import ChatResponse, Message, ToolSpec
from repopilot.llm.scripted import ScriptedLLM
from repopilot.proposal.validate import validator_for
from repopilot.trace import TraceWriter, load, summary
from tests.agent.test_agent_support import (
    CANARY,
    FIX_DIFF,
    WORKFLOW_DIFF,
    answer,
    call,
    make_repo,
    reply,
)

STEP_KEYS = {
    "step_number",
    "timestamp",
    "type",
    "model",
    "tool_name",
    "arguments",
    "result",
    "error",
    "duration_ms",
}
STEP_TYPES = {"classify", "llm_call", "tool_call", "tool_result", "error", "decision"}


def fix(diff: str, call_id: str):
    args = {"diagnosis": "add subtracts", "category": "test_failure", "confidence": 0.8}
    return reply(call("propose_fix", call_id, diff=diff, **args))


SCRIPT = [
    reply(call("git_diff", "a")),
    reply(call("read_file", "b", path="src/calc.py")),
    reply(call("nope", "c")),
    fix(WORKFLOW_DIFF, "d"),
    fix(FIX_DIFF, "e"),
]


def recorded_run(tmp_path: Path, script=SCRIPT, limits: Limits | None = None):
    repo = make_repo(tmp_path / "repo")
    llm = ScriptedLLM(list(script), model="gpt-test")
    tools = Toolbox(str(repo), base_ref="main")
    trace = TraceWriter(directory=str(tmp_path / "runs"))
    agent = Agent(llm, tools, validate=validator_for(repo), trace=trace, limits=limits)
    return agent.run("A CI job failed: test_add. Diagnose it."), agent


@pytest.mark.integration
def test_trace_file_has_exactly_the_contract_5_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    repo = make_repo(tmp_path / "repo")
    llm = ScriptedLLM([reply(call("list_files")), answer()])
    out = Agent(llm, Toolbox(str(repo))).run("goal text")
    path = Path(out.trace)
    assert path.parent == Path(".runs") and path.name.endswith(".json")  # the default place
    data = json.loads(path.read_text())
    assert set(data) == {
        "run_id",
        "goal",
        "started_at",
        "finished_at",
        "outcome",
        "steps",
        "usage",
    }
    assert path.stem == data["run_id"] and data["goal"] == "goal text"
    assert data["outcome"] == "answer" and data["finished_at"] >= data["started_at"]
    assert set(data["usage"]) == {"llm_calls", "tool_calls", "prompt_tokens", "completion_tokens"}
    assert data["usage"] == {
        "llm_calls": 2,
        "tool_calls": 1,
        "prompt_tokens": 200,
        "completion_tokens": 20,
    }
    for i, step in enumerate(data["steps"], 1):
        assert set(step) == STEP_KEYS and step["type"] in STEP_TYPES and step["step_number"] == i
    types = [s["type"] for s in data["steps"]]
    assert types == ["decision", "llm_call", "tool_call", "tool_result", "llm_call", "decision"]
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp files left


class PeekingLLM:
    """A real LLM implementation that reads the trace file each time it is called."""

    model = "peek"

    def __init__(self, writer: TraceWriter):
        self.writer, self.seen = writer, []

    def chat(self, messages: list[Message]) -> ChatResponse:
        return self.chat_with_tools(messages, [])

    def chat_with_tools(self, messages: list[Message], tools: list[ToolSpec]) -> ChatResponse:
        path = self.writer.path
        self.seen.append(len(json.loads(path.read_text())["steps"]) if path.exists() else 0)
        if len(self.seen) < 3:
            return reply(
                call("list_files", f"c{len(self.seen)}", path=["src", "tests"][len(self) - 1])
            )
        return answer()

    def __len__(self) -> int:
        return len(self.seen)


@pytest.mark.integration
def test_trace_is_saved_after_every_step(tmp_path):
    repo = make_repo(tmp_path / "repo")
    writer = TraceWriter(directory=str(tmp_path / "runs"))
    llm = PeekingLLM(writer)
    Agent(llm, Toolbox(str(repo)), trace=writer).run("goal")
    # before the 2nd and 3rd calls the file already held the previous step's records
    assert llm.seen == [0, 4, 7]


@pytest.mark.unit
def test_trace_values_are_redacted(tmp_path):
    writer = TraceWriter("goal", directory=str(tmp_path))
    writer.add("tool_call", tool_name="search_code", arguments={"pattern": CANARY})
    writer.add("error", error=f"leaked {CANARY}")
    path = writer.save()
    text = path.read_text()
    assert CANARY not in text and "[REDACTED:" in text


@pytest.mark.unit
def test_unwritable_trace_dir_does_not_stop_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a dir")
    writer = TraceWriter(directory=str(blocker / "runs"))
    writer.add("decision", result={"x": 1})
    assert writer.save() is None and "trace" in writer.save_error


@pytest.mark.integration
def test_summary_reports_the_numbers(tmp_path):
    out, agent = recorded_run(tmp_path)
    text = summary(load(out.trace), out.trace)
    assert f"run {agent.trace.trace.run_id}: proposal" in text
    assert "llm calls 5, tool calls 5, errors 1" in text
    assert "tokens: 500 prompt + 50 completion = 550" in text
    assert "goal: A CI job failed" in text and "duration:" in text and out.trace in text


@pytest.mark.integration
def test_trace_show_prints_a_timeline(tmp_path, capsys):
    out, _ = recorded_run(tmp_path)
    assert main(["trace", "show", out.trace]) == 0
    shown = capsys.readouterr().out
    assert "llm_call gpt-test -> git_diff({})" in shown
    assert "tool_call read_file" in shown and "tool_result read_file" in shown
    assert "unknown tool 'nope'" in shown and "protected-path" in shown
    assert "llm calls 5" in shown


@pytest.mark.integration
def test_trace_replay_unchanged_run_has_no_divergence(tmp_path, capsys):
    out, _ = recorded_run(tmp_path)
    assert main(["trace", "replay", out.trace]) == 0
    assert capsys.readouterr().out.startswith("no divergence")


@pytest.mark.integration
def test_trace_replay_reports_the_step_where_a_changed_run_diverges(tmp_path, capsys):
    out, _ = recorded_run(tmp_path)
    data = json.loads(Path(out.trace).read_text())
    # the recorded model now asks for another file at its 2nd call: the tool call that follows
    # in the recording no longer matches what the loop does with that reply
    llm2 = [s for s in data["steps"] if s["type"] == "llm_call"][1]
    llm2["result"]["tool_calls"][0]["arguments"] = {"path": "README.md"}
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    assert main(["trace", "replay", str(changed)]) == 1
    printed = capsys.readouterr().out
    assert printed.startswith(f"diverges at step {llm2['step_number'] + 1}\n")
    assert "src/calc.py" in printed and "README.md" in printed


@pytest.mark.integration
def test_trace_replay_detects_a_changed_limit(tmp_path, capsys):
    out, agent = recorded_run(tmp_path)
    data = json.loads(Path(out.trace).read_text())
    data["steps"][0]["result"]["limits"]["max_steps"] = 2
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    assert main(["trace", "replay", str(changed)]) == 1
    third_llm = [s for s in data["steps"] if s["type"] == "llm_call"][2]["step_number"]
    assert f"diverges at step {third_llm}" in capsys.readouterr().out


@pytest.mark.unit
@pytest.mark.parametrize("content", ["not json", '{"run_id": 1}', None])
def test_trace_commands_reject_bad_files_in_one_line(tmp_path, capsys, content):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert main(["trace", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"repopilot: {path}") and err.count("\n") == 1


@pytest.mark.integration
def test_replay_skips_the_pipeline_steps_before_the_agent(tmp_path, capsys):
    repo = make_repo(tmp_path / "repo")
    writer = TraceWriter("goal", directory=str(tmp_path / "runs"))
    writer.add("classify", result={"category": "unknown"})
    writer.add("decision", result={"event": "evidence-window", "tokens": 10})
    llm = ScriptedLLM([reply(call("list_files")), answer()])
    out = Agent(llm, Toolbox(str(repo)), trace=writer).run("goal")
    assert main(["trace", "replay", out.trace]) == 0
    assert "no divergence" in capsys.readouterr().out


@pytest.mark.unit
@pytest.mark.parametrize("run_id", ["../x", "a/b", ".hidden", ""])
def test_run_id_must_be_a_plain_file_name(tmp_path, run_id):
    if not run_id:
        assert TraceWriter(run_id=None, directory=str(tmp_path)).trace.run_id
        return
    with pytest.raises(ValueError, match="run id"):
        TraceWriter(run_id=run_id, directory=str(tmp_path))


@pytest.mark.integration
def test_trace_replay_live_on_the_checkout_finds_a_changed_file(tmp_path, capsys):
    out, _ = recorded_run(tmp_path)
    repo = tmp_path / "repo"
    live = ["trace", "replay", out.trace, "--repo", str(repo), "--base", "main"]
    assert main(live) == 0
    assert capsys.readouterr().out.startswith("no divergence")
    (repo / "src" / "calc.py").write_text("def add(a, b):\n    return b - a\n")
    assert main(live) == 1
    data = json.loads(Path(out.trace).read_text())
    read = next(
        s for s in data["steps"] if s["type"] == "tool_result" and s["tool_name"] == "read_file"
    )
    printed = capsys.readouterr().out
    assert printed.startswith(f"diverges at step {read['step_number']}\n")  # git_diff: same commits
    assert main(["trace", "replay", out.trace, "--log", "x.log"]) == 2
    assert "need --repo" in capsys.readouterr().err


@pytest.mark.integration
def test_replay_of_a_json_text_run_after_tools_unsupported(tmp_path, capsys):
    from repopilot.llm.base import LLMError, ToolsUnsupported

    action = '{"thought": "t", "action": "list_files", "action_input": {"path": "src"}}'
    final = '{"action": "final_answer", "action_input": {"answer": "add subtracts"}}'
    script = [ToolsUnsupported("no tools"), reply(text=action), reply(text=final)]
    out, _ = recorded_run(tmp_path, script=script)
    assert out.stop_reason == "answer" and out.diagnosis == "add subtracts"
    assert main(["trace", "replay", out.trace]) == 0
    assert "no divergence" in capsys.readouterr().out
    out2, _ = recorded_run(
        tmp_path / "b", script=[reply(call("git_log")), LLMError("http-503", "x")]
    )
    assert out2.stop_reason == "llm-unavailable"
    assert main(["trace", "replay", out2.trace]) == 0
    assert "no divergence" in capsys.readouterr().out


@pytest.mark.unit
def test_replay_of_a_run_without_the_model_says_so(tmp_path, capsys):
    writer = TraceWriter("triage job.log", directory=str(tmp_path))
    writer.add("classify", result={"category": "test_failure"})
    writer.add("decision", result={"escalated": False, "reason": "decided-by-pattern"})
    writer.finish("decided-by-pattern")
    assert main(["trace", "replay", str(writer.path)]) == 0
    assert capsys.readouterr().out.startswith("nothing to replay")
