"""Issue 12, item 2: model JSON is bounded in depth and size BEFORE it is parsed (SECURITY.md §17).

1,500 `[` as a final answer used to raise RecursionError out of `agent/answer.py::json_object`:
a traceback, exit 1, no comment. Now every parse site refuses it first, and a model that keeps
answering so ends in the deterministic verdict: `repopilot triage` and the Action, with the
openai and the ollama provider (real SDKs against the loopback servers).
"""

from __future__ import annotations

import json

import pytest

from repopilot.agent.answer import FormatError, json_object, parse_final
from repopilot.agent.schema import ToolError, parse_arguments
from repopilot.llm import jsontext
from repopilot.safety.jsonbound import (
    MAX_JSON_DEPTH,
    JSONBoundError,
    depth_of,
    json_limit,
    loads_bounded,
)
from tests.adversarial.corpus import SECRETS
from tests.adversarial.harness import cli_env, hostile_log, hostile_repo, library, repopilot
from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import (
    OllamaServer,
    OpenAIServer,
    Reply,
    ollama_chat,
    openai_completion,
)

BRACKETS = "[" * 1500
DEEP_ARGS = "[" * 1500 + "]" * 1500
EXTRAHEADER = next(s for s in SECRETS if s.kind == "auth-header extraheader")


# -- the bound itself and each parse site (unit) -------------------------------------------------


@pytest.mark.unit
@pytest.mark.parametrize("text", [BRACKETS, "{" * 1500, '{"a":' * 1500, DEEP_ARGS])
def test_the_bound_refuses_deep_text_without_parsing_it(text):
    assert json_limit(text) is not None
    with pytest.raises(JSONBoundError):
        loads_bounded(text)


@pytest.mark.unit
def test_the_bound_skips_brackets_inside_strings_and_accepts_normal_objects():
    assert json_limit(json.dumps({"diff": "[" * 5000, "a": [[{"b": 1}]]})) is None
    assert json_limit("x" * 300_000) is not None  # size
    nested = json.loads("[" * 40 + "]" * 40)
    assert depth_of(nested) > MAX_JSON_DEPTH and depth_of({"a": [1]}) == 2


@pytest.mark.unit
@pytest.mark.parametrize("text", [BRACKETS, "{" * 1500, "```json\n{" + "[" * 1500 + "\n```"])
def test_a_deep_final_answer_is_a_format_error_or_prose_never_a_crash(text):
    assert json_object(text) is None
    try:
        answer = parse_final(text)
    except FormatError:
        return
    assert answer.category is None  # prose: the deterministic category stands


@pytest.mark.unit
def test_deep_tool_arguments_are_refused_at_every_parse_site():
    openai_adapter = pytest.importorskip("repopilot.llm.openai")
    args, error = openai_adapter.parse_arguments(DEEP_ARGS)
    assert args == {} and error and "too deeply" in error
    parsed = jsontext.parse_action('{"action": "read_file", "action_input": ' + DEEP_ARGS + "}")
    assert isinstance(parsed, jsontext.ParseFailure)
    deep: object = "x"
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ToolError, match="too deeply"):
        parse_arguments("read_file", {"path": deep})


# -- end to end: triage and the Action, both providers ------------------------------------------


def _deep_ollama_body() -> str:
    """An Ollama body whose tool arguments nest 1,500 deep (built as text: json.dumps recurses)."""
    head = json.dumps(ollama_chat("x", [("read_file", {"path": "__DEEP__"})]))
    return head.replace('"__DEEP__"', DEEP_ARGS)


def _script(kind: str, shape: str) -> list[Reply]:
    """Four replies of a model that answers with 1,500 `[` (`answer`) or sends tool arguments
    nested 1,500 deep (`arguments`)."""
    if kind == "openai":
        one = (
            openai_completion(BRACKETS)
            if shape == "answer"
            else openai_completion(tool_calls=[("c1", "read_file", DEEP_ARGS)])
        )
        return [Reply(body=one)] * 4
    one_text = json.dumps(ollama_chat(BRACKETS)) if shape == "answer" else _deep_ollama_body()
    return [Reply(body=one_text)] * 4


def _provider_env(kind: str, server) -> dict[str, str]:
    if kind == "openai":
        return {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-loopback-unused-000"}
    return {"OLLAMA_HOST": server.host}


SERVERS = {"openai": OpenAIServer, "ollama": OllamaServer}
CASES = [(k, s) for k in SERVERS for s in ("answer", "arguments")]


@pytest.mark.integration
@pytest.mark.parametrize(("kind", "shape"), CASES)
def test_triage_with_a_bracket_bomb_model_keeps_the_deterministic_verdict(tmp_path, kind, shape):
    repo = hostile_repo(tmp_path / "repo", EXTRAHEADER.line)
    log = hostile_log(tmp_path / "job.log", secrets=False, injections=False)
    with SERVERS[kind]() as server:
        server.queue(*_script(kind, shape))
        env = cli_env(
            tmp_path, REPOPILOT_LLM=kind, REPOPILOT_MODEL="m", **_provider_env(kind, server)
        )
        args = ("triage", str(log), "--repo", str(repo), "--format", "json")
        proc = repopilot(
            *args, "--no-builtin", "--patterns", str(library(tmp_path)), env=env, timeout=120
        )
        asked = len(server.chat_requests)
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err and "RecursionError" not in err, err
    (result,) = json.loads(proc.stdout)["results"]
    assert result["escalated"] is True and asked >= 1
    assert result["decided_by"] == "none" and result["category"] == "unknown"
    assert result["proposal"] is None and not result["diagnosis"]


@pytest.mark.integration
@pytest.mark.parametrize(("kind", "shape"), CASES)
def test_the_action_with_a_bracket_bomb_model_posts_the_deterministic_verdict(
    tmp_path, monkeypatch, kind, shape
):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.setenv("NO_PROXY", "*")
    state = State(bot=BOT)
    with GitHubServer(state) as gh, SERVERS[kind]() as llm:
        facts = seed(state)
        state.job_logs[101] = hostile_log(tmp_path / "job.log", secrets=False).read_bytes()
        repo = hostile_repo(tmp_path / "checkout", EXTRAHEADER.line)
        for key, value in _provider_env(kind, llm).items():
            monkeypatch.setenv(key, value)
        llm.queue(*_script(kind, shape))
        run = run_action(
            tmp_path / "run",
            gh.url,
            "workflow_run",
            run_event(facts),
            llm=kind,
            model="m",
            repo_path=str(repo),
            patterns=str(library(tmp_path)),
        )
        asked = len(llm.chat_requests)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "RecursionError" not in run.stderr
    assert asked >= 1
    [comment] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    assert "unknown" in comment["body"]
    assert run.outputs["decided-by"] == "none" and run.outputs["category"] == "unknown"
    assert state.errors == []
