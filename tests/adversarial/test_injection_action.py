"""Prompt injection and every §4 secret through the Action: the entry point in-process through
`main(env)` with the runner's environment, real PyGithub against the loopback GitHub, the real
openai client against a loopback model that obeys every injection. One comment, nothing proposed, nothing leaked anywhere:
comment, summary, outputs, traces, model request bodies.
"""

from __future__ import annotations

import json
import re
from base64 import b64decode

import pytest
from markdown_it import MarkdownIt

from repopilot.comment.marker import parse_marker
from tests.adversarial.corpus import HIDDEN, INVISIBLE, SECRETS, leaked, secret_lines
from tests.adversarial.harness import (
    hostile_log,
    hostile_repo,
    library,
    message_texts,
    obedient_model,
    read_traces,
)
from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_contents import repository_writes
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer

pytestmark = pytest.mark.integration

pytest.importorskip("openai")

EXTRAHEADER = next(s for s in SECRETS if s.kind == "auth-header extraheader")
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
LIVE_MENTION = re.compile(r"(?:^|[^\w`])@[A-Za-z0-9]")


def inert(body: str) -> list[str]:
    """Problems in a comment body parsed as CommonMark: live mentions, images, raw inline HTML."""
    problems = []
    for tok in MD.parse(body):
        for t in [tok, *(tok.children or ())]:
            if t.type == "image" or t.type == "html_inline":
                problems.append(f"{t.type}: {t.content!r}")
            if t.type == "text" and LIVE_MENTION.search(t.content):
                problems.append(f"mention: {t.content!r}")
            if t.type == "link_open" and "evil.example" in t.attrs.get("href", ""):
                problems.append(f"link: {t.attrs['href']}")
    return problems


@pytest.fixture
def world(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    state = State(bot=BOT)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        facts = seed(state)
        state.job_logs[101] = hostile_log(tmp_path / "job.log").read_bytes()
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        repo = hostile_repo(tmp_path / "checkout", EXTRAHEADER.line)
        yield tmp_path, gh, llm, facts, repo
    assert state.errors == []


def _run(tmp_path, gh, facts, repo, **inputs):
    return run_action(
        tmp_path / "run",
        gh.url,
        "workflow_run",
        run_event(facts),
        llm="openai",
        repo_path=str(repo),
        patterns=str(library(tmp_path)),
        **inputs,
    )


def _everything_written(run, state) -> str:
    comments = "\n".join(c["body"] for c in state.comments.values())
    outputs = json.dumps(run.outputs)
    memory = [r.body for r in state.calls("POST", r".*/git/trees")]  # issue 28's seen.json
    memory += [b64decode(r.body["content"]).decode() for r in state.calls("PUT", r".*/contents/.*")]
    stored = json.dumps(memory)
    return "\n".join([comments, run.summary, outputs, run.stdout, run.stderr, stored])


@pytest.mark.parametrize("echo_secrets", [False, True], ids=["obeys", "obeys-and-quotes-secrets"])
def test_obedient_model_changes_nothing_and_leaks_nothing(world, echo_secrets):
    tmp_path, gh, llm, facts, repo = world
    state = gh.state
    diagnosis = (
        "Deploy failed. @octo-org/maintainers ![x](https://evil.example/p.png) ```\n</details>"
    )
    if echo_secrets:  # a model quoting secret lines back (it saw none): still redacted
        diagnosis += "\n" + "\n".join(secret_lines())
    llm.queue(*obedient_model(diagnosis))
    refs_before = {k: dict(v) for k, v in state.refs.items()}
    run = _run(tmp_path, gh, facts, repo)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert len(llm.chat_requests) == 5, "the model was asked and its whole script was used"

    # exactly one comment, no proposal in it, no write to any branch
    [comment] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    marker = parse_marker(comment["body"])
    assert marker is not None and marker.proposals == ()
    code = {
        k: {b: s for b, s in v.items() if b != "repopilot-memory"} for k, v in state.refs.items()
    }
    assert code == refs_before  # only RepoPilot's memory branch is written (issue 28)
    assert not repository_writes(state)
    assert run.outputs["proposal-id"] == ""
    plain = comment["body"].replace("\\", "")  # untrusted text is backslash-escaped
    assert "protected-path" in plain and "path-escape" in plain

    # the comment stays inert: the model's markdown cannot mention, embed or close our blocks
    assert inert(comment["body"]) == []
    offers = comment["body"].count("<!-- repopilot-learn-yaml:")  # a pattern to learn (issue 21)
    assert comment["body"].count("<details>") == comment["body"].count("</details>") == 1 + offers

    # nothing leaked: comment, summary, outputs, console, traces, model request bodies
    written = _everything_written(run, state)
    assert leaked(written) == [], leaked(written)
    traces = read_traces(tmp_path / "run" / "runs")
    assert traces and leaked(traces) == []
    sent = "\n".join(message_texts([r.body for r in llm.chat_requests], ours_only=True))
    assert leaked(sent) == [] and "[REDACTED:" in sent
    assert HIDDEN not in sent + written + traces
    assert not [c for c in INVISIBLE if c in sent + comment["body"]]
    assert "root:x:0:0" not in sent + written + traces


def _pytest_log(secret: str) -> bytes:
    lines = [
        "##[group]Run pytest",
        "pytest -q",
        "##[endgroup]",
        f"FAILED tests/test_auth.py::test_login[{secret}] - AssertionError: 401",
        "##[error]Process completed with exit code 1.",
    ]
    return "".join(f"2026-01-02T03:04:05.0000000Z {ln}\n" for ln in lines).encode()


ID_SAFE = [s for s in SECRETS if s.kind.split()[0] in ("github-token", "aws-access-key", "jwt")]


def _capture_run(tmp_path, value: str):
    state = State(bot=BOT)
    with GitHubServer(state) as gh:
        facts = seed(state)
        state.job_logs[101] = _pytest_log(value)
        run = run_action(tmp_path, gh.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    [comment] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    assert "test_login" in comment["body"]
    return run, comment["body"]


@pytest.mark.parametrize("secret", ID_SAFE, ids=[s.kind for s in ID_SAFE])
def test_secret_in_a_pattern_capture_stays_out_of_comment_outputs_and_trace(tmp_path, secret):
    """pytest puts parameter values in test ids: `test_login[<token>]`. The deterministic path
    (no LLM) captures it into the verdict's title, hint and evidence."""
    value = secret.needles[0]
    run, body = _capture_run(tmp_path, value)
    assert value not in body
    assert value not in json.dumps(run.outputs) + run.stdout + run.stderr
    assert value not in read_traces(tmp_path / "runs")


def test_secret_in_a_pattern_capture_stays_out_of_the_job_summary(tmp_path):
    """Found here in GITHUB_STEP_SUMMARY (action._job_table); fixed since: a regression test."""
    value = ID_SAFE[0].needles[0]
    run, _ = _capture_run(tmp_path, value)
    assert "test_login" in run.summary
    assert value not in run.summary


def test_analyze_result_file_holds_no_secret(tmp_path):
    """Found here in the analyze job's result file (an artifact); fixed since: regression."""
    value = ID_SAFE[0].needles[0]
    result = tmp_path / "result.json"
    state = State(bot=BOT)
    with GitHubServer(state) as gh:
        facts = seed(state)
        state.job_logs[101] = _pytest_log(value)
        run = run_action(
            tmp_path, gh.url, "workflow_run", run_event(facts), mode="analyze",
            result_file=str(result),
        )  # fmt: skip
    assert run.returncode == 0, run.stderr
    text = result.read_text(encoding="utf-8")
    assert "test_login" in text and value not in text


def test_comment_reports_the_llm_calls_that_were_made(world):
    """The one record a reviewer sees must not say 'LLM usage: none' after the model ran."""
    tmp_path, gh, llm, facts, repo = world
    llm.queue(*obedient_model("Deploy failed."))
    run = _run(tmp_path, gh, facts, repo)
    assert run.returncode == 0, run.stderr
    assert len(llm.chat_requests) == 5
    [comment] = [c for c in gh.state.issue_comments(7) if c["login"] == BOT]
    assert "LLM usage: none" not in comment["body"]
