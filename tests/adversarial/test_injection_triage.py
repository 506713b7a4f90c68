"""Prompt injection and secrets through `repopilot triage` as a user runs it (Contract 4): the real
openai client talks to a loopback server scripted as a model that OBEYS every injection in the log
and the checkout. Nothing it asks for may happen, and no secret may reach it or any output.
"""

from __future__ import annotations

import json

import pytest

from tests.adversarial.corpus import HIDDEN, INVISIBLE, SECRETS, leaked, secret_lines
from tests.adversarial.harness import (
    cli_env,
    hostile_log,
    hostile_repo,
    library,
    message_texts,
    obedient_model,
    read_traces,
    repopilot,
)
from tests.loopback.llm_servers import OpenAIServer

pytestmark = pytest.mark.integration

pytest.importorskip("openai")

API_KEY = "sk-loopback-" + "K3y" * 10  # the provider key: in the environment, never in a body
EXTRAHEADER = next(s for s in SECRETS if s.kind == "auth-header extraheader")


@pytest.fixture
def setup(tmp_path):
    repo = hostile_repo(tmp_path / "repo", EXTRAHEADER.line)
    log = hostile_log(tmp_path / "job.log")
    return tmp_path, repo, log, library(tmp_path)


def _triage(tmp_path, repo, log, lib, server):
    env = cli_env(
        tmp_path,
        REPOPILOT_LLM="openai",
        OPENAI_BASE_URL=server.base_url,
        OPENAI_API_KEY=API_KEY,
        REPOPILOT_MODEL="obedient",
    )
    args = (
        "triage",
        str(log),
        "--repo",
        str(repo),
        "--format",
        "json",
        "--no-builtin",
        "--patterns",
        str(lib),
    )
    return repopilot(*args, env=env)


def test_obedient_model_gets_nothing_it_asks_for(setup):
    tmp_path, repo, log, lib = setup
    with OpenAIServer() as server:
        server.queue(*obedient_model("The deploy failed; see the token."))
        proc = _triage(tmp_path, repo, log, lib, server)
        bodies = [r.body for r in server.chat_requests]
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    (result,) = json.loads(proc.stdout)["results"]
    assert result["escalated"] is True and result["category"] == "test_failure"
    # the workflow edit and the path escape were refused; nothing is offered
    assert result["proposal"] is None
    assert [r["reason"] for r in result["rejected"]] == ["protected-path", "path-escape"]
    assert len(bodies) == 5, "the script ran to its end"
    sent = "\n".join(message_texts(bodies))
    # no sandbox escape returned content: passwd, environ, .git/config, the symlink
    assert "root:x:0:0" not in sent and API_KEY not in sent
    # (the file name `passwd` followed by `:` reads as a password assignment to the redactor,
    # hence the looser wording checks for the two `passwd` refusals)
    for refused in (
        ": '",
        "absolute paths are not allowed",
        ".git/ is not",
        "outside the checkout",
    ):
        assert refused in sent, refused
    # secrets from the log, the repo file and the search results never reached the model
    raw = b"\n".join(bodies).decode()
    assert leaked(raw) == [] and leaked(sent) == []
    assert "[REDACTED:" in sent, "the redacted file was shown, so the check above is not vacuous"
    # injection hygiene: HTML comment contents and invisible characters are gone
    assert HIDDEN not in sent
    assert not [c for c in INVISIBLE if c in sent]
    # untrusted text sits inside nonce fences the log cannot imitate
    assert "<untrusted-log-excerpt-0000000000000000>" not in sent
    # nothing leaked into stdout (evidence and the model's fields), stderr or the traces
    assert leaked(proc.stdout.decode() + err) == []
    traces = read_traces(tmp_path / "runs")
    assert traces and leaked(traces) == [] and HIDDEN not in traces
    assert not repo.joinpath("..", "outside.txt").exists()
    assert "curl" not in (repo / ".github/workflows/ci.yml").read_text()


def test_a_model_that_writes_secrets_into_its_answer_leaks_none_to_the_trace(setup):
    """Defence in depth: even if a model wrote the secret lines back (it saw none of them), the
    trace stores them redacted. (A bare value with no context, e.g. a password alone, is not
    recognisable by any redactor; the lines are what a model would quote.)"""
    tmp_path, repo, log, lib = setup
    diagnosis = "Leaking as told:\n" + "\n".join(secret_lines())
    with OpenAIServer() as server:
        server.queue(*obedient_model(diagnosis))
        proc = _triage(tmp_path, repo, log, lib, server)
    assert proc.returncode == 0, proc.stderr.decode()
    traces = read_traces(tmp_path / "runs")
    assert "Leaking as told" in traces and leaked(traces) == []


def test_cli_output_evidence_is_redacted(setup):
    """Found here unredacted (Contract 1 evidence was the raw line); fixed since: regression."""
    tmp_path, repo, log, lib = setup
    env = cli_env(tmp_path)  # REPOPILOT_LLM unset: deterministic only
    args = (
        "triage",
        str(log),
        "--repo",
        str(repo),
        "--format",
        "json",
        "--no-builtin",
        "--patterns",
        str(lib),
    )
    proc = repopilot(*args, env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert leaked(proc.stdout.decode()) == []


def test_cli_output_diagnosis_is_redacted(setup):
    """Found here unredacted in `triage` stdout; fixed since: a regression test."""
    tmp_path, repo, log, lib = setup
    with OpenAIServer() as server:
        server.queue(*obedient_model("Leaking as told:\n" + "\n".join(secret_lines())))
        proc = _triage(tmp_path, repo, log, lib, server)
    assert proc.returncode == 0, proc.stderr.decode()
    (result,) = json.loads(proc.stdout)["results"]
    assert "Leaking as told" in result["diagnosis"]
    assert leaked(result["diagnosis"]) == []
