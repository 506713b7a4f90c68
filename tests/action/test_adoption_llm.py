"""Degrade, don't fail (issue 13): an LLM that cannot be reached, or answers with errors, leaves
the pattern verdict posted with one line in the comment and a `::warning::` saying why; the
usage in the comment comes from the job traces. The Action runs in-process through its triage
seam with the real OpenAI adapter against a loopback server (or a closed port)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot import pipeline
from repopilot.action import entry
from repopilot.action.llm_status import llm_status
from repopilot.llm.openai import OpenAIChat
from repopilot.llm.retry import RetryPolicy
from repopilot.records import Verdict
from repopilot.run_records import TriageResult
from repopilot.trace import TraceWriter
from tests.adoption_logs import unknown_log
from tests.loopback.github_action import BOT, CLIENT_WAITS, parse_outputs, run_event, seed
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, closed_port, openai_completion

pytestmark = pytest.mark.integration
FAST = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02, max_retry_after=0.05)


@pytest.fixture
def world(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.chdir(tmp_path)
    state = State(bot=BOT)
    with GitHubServer(state) as gh:
        facts = seed(state)
        state.job_logs[101] = unknown_log()
        yield tmp_path, gh, facts
    assert state.errors == []


def action_env(tmp: Path, gh, facts, **extra: str) -> dict[str, str]:
    """The Action's environment for the seeded failed run, with the OpenAI LLM configured."""
    event = tmp / "event.json"
    event.write_text(json.dumps(run_event(facts)), encoding="utf-8")
    out, summary = tmp / "out.txt", tmp / "summary.md"
    out.write_text("")
    summary.write_text("")
    return {
        "GITHUB_API_URL": gh.url,
        "GITHUB_SERVER_URL": gh.url,
        "GITHUB_REPOSITORY": "octo-org/octo-repo",
        "GITHUB_EVENT_NAME": "workflow_run",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(out),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_RUN_ID": "9000",
        "INPUT_GITHUB-TOKEN": "ghs_loopbacktesttoken0123456789",
        "INPUT_LLM": "openai",
        **CLIENT_WAITS,
        "REPOPILOT_GITHUB_PACE": "0",
        "REPOPILOT_TRACE_DIR": str(tmp / "runs"),
        **extra,
    }


def run(tmp: Path, gh, facts, llm) -> tuple[int, dict, str]:
    env = action_env(tmp, gh, facts)
    out, summary = tmp / "out.txt", tmp / "summary.md"
    classifier = pipeline.load_classifier()

    def triage(path: str, origin=None):
        how = pipeline.Escalation(llm)
        return pipeline.triage(path, tmp, how, classifier=classifier, trace_dir=tmp / "runs")

    code = entry.main(env, triage)
    return code, parse_outputs(out.read_text()), summary.read_text()


def client(base_url: str) -> OpenAIChat:
    return OpenAIChat("gpt-test", base_url=base_url, api_key="sk-unused", timeout=0.5, retry=FAST)


def bot_body(gh) -> str:
    [comment] = [c for c in gh.state.issue_comments(7) if c["login"] == BOT]
    return comment["body"]


def test_unreachable_provider_posts_the_pattern_verdict_with_a_warning(world, capsys):
    tmp, gh, facts = world
    code, outputs, _ = run(tmp, gh, facts, client(f"http://127.0.0.1:{closed_port()}/v1"))
    console = capsys.readouterr().out
    assert code == 0, console
    body = bot_body(gh)
    assert "The LLM was skipped:** the LLM provider could not be reached" in body
    assert "::warning::RepoPilot: the LLM was skipped: the LLM provider could not be reached" in (
        console
    )
    assert outputs["category"] == "unknown" and outputs["decided-by"] == "none"
    assert "no pattern recognizes this failure and the LLM gave no answer" in body


def test_server_errors_are_one_line_too(world, capsys):
    tmp, gh, facts = world
    with OpenAIServer() as llm:
        llm.queue(*[Reply(500, {"error": {"message": "boom"}})] * 8)
        code, _, _ = run(tmp, gh, facts, client(llm.base_url))
    assert code == 0
    assert "The LLM was skipped" in bot_body(gh)
    assert "::warning::" in capsys.readouterr().out


def test_usage_in_the_comment_comes_from_the_trace(world, capsys):
    tmp, gh, facts = world
    answer = openai_completion(
        content="The CHANGELOG.md entry for 1.4.0 is missing. Add it.",
        prompt_tokens=3400,
        completion_tokens=235,
    )
    with OpenAIServer() as llm:
        llm.queue(Reply(200, answer))
        code, outputs, _ = run(tmp, gh, facts, client(llm.base_url))
    assert code == 0, capsys.readouterr().out
    body = bot_body(gh)
    assert outputs["decided-by"] == "llm"
    assert "1 call, 3,635 tokens (prompt 3,400, completion 235)" in body
    assert "not recorded" not in body and "The LLM was skipped" not in body
    assert "Unrecognized" not in body.split("How this was decided")[0]
    assert "1 job asked, 1 answered, 1 call, 3,635 tokens" in capsys.readouterr().out


def test_llm_status_reads_the_stop_reason_and_the_last_error(tmp_path):
    trace = TraceWriter("goal", directory=tmp_path)
    trace.add("llm_call", model="m", error="timed out")
    trace.add("error", error="llm-unavailable: connection refused (127.0.0.1:9)")
    trace.finish("llm-unavailable")
    verdict = Verdict(source="x", category="unknown")
    failed = TriageResult(verdict=verdict, escalated=True, trace=str(trace.path))
    plain = TriageResult(verdict=verdict)
    status = llm_status("openai", None, [failed, plain])
    assert status.asked == 1 and status.answered == 0
    assert status.skipped == (
        "the LLM provider could not be reached or refused the request "
        "(llm-unavailable: connection refused (127.0.0.1:9))"
    )
    assert llm_status("openai", "OPENAI_API_KEY is not set", []).skipped.startswith("openai: ")
    assert llm_status("none", None, [plain]).skipped is None


@pytest.mark.parametrize("checked_out", [True, False], ids=["same-repository", "fork"])
def test_the_goal_says_whether_the_tools_have_a_checkout(world, checked_out, capsys):
    # The real entry path (no seam): the example workflow checks out a same-repository head at
    # `repo-path` and nothing on a fork PR; the model is told which, so it does not spend its
    # steps listing an empty workspace.
    tmp, gh, facts = world
    head = tmp / "head"
    (head / ".git" if checked_out else head).mkdir(parents=True)
    answer = openai_completion(content="The CHANGELOG.md entry for 1.4.0 is missing.")
    with OpenAIServer() as llm:
        llm.queue(Reply(200, answer))
        given = {"INPUT_REPO-PATH": str(head), "OPENAI_BASE_URL": llm.base_url}
        env = action_env(tmp, gh, facts, OPENAI_API_KEY="sk-unused", **given)
        code = entry.main(env)
        sent = llm.all_bodies_text()
    assert code == 0, capsys.readouterr().out
    assert len(llm.chat_requests) == 1
    line = "Repository checkout for the file and git tools: "
    assert (line + "yes" in sent) is checked_out
    assert (line + "none (a fork" in sent) is not checked_out
    assert parse_outputs((tmp / "out.txt").read_text())["decided-by"] == "llm"
