"""Issue 12, item 5: secret shapes that passed redaction (SECURITY.md §4, §19): a value registered
with `::add-mask::` (every later occurrence, as the runner does), `-p`/`--password`/netrc
passwords, and a GitHub token wrapped across two lines. None may reach the PR comment, the
`.runs` traces or the LLM request bodies.
"""

from __future__ import annotations

import json
import random

import pytest

from repopilot.safety.masks import forget_masks, remember_masks
from repopilot.safety.redact import clean_for_model, redact
from tests.adversarial.corpus import SECRETS
from tests.adversarial.harness import hostile_repo, library, read_traces, tool_reply
from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, openai_completion

RNG = random.Random(1212)  # built at run time: nothing token-shaped is committed
B62 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def rand(n: int) -> str:
    return "".join(RNG.choice(B62) for _ in range(n)) + "7"


MASKED = rand(15)
DOCKER_PW, MYSQL_PW, FLAG_PW, SSH_PW, NETRC_PW = (rand(11) for _ in range(5))
TOKEN = "ghp_" + rand(35)
HEAD, TAIL = TOKEN[:22], TOKEN[22:]
STAMP = "2026-01-02T03:04:05.1234567Z "


@pytest.fixture(autouse=True)
def _fresh_registry():
    forget_masks()
    yield
    forget_masks()


@pytest.mark.unit
def test_an_add_mask_value_is_redacted_in_every_later_line():
    log = f"::add-mask::{MASKED}\nstep 1\nusing {MASKED} now\nand again:{MASKED}."
    out = redact(log)
    assert MASKED not in out.text and out.text.count("[REDACTED:add-mask]") == 3
    assert "add-mask" in out.kinds


@pytest.mark.unit
def test_an_add_mask_value_stays_masked_in_texts_redacted_later():
    remember_masks(f"{STAMP}::add-mask::{MASKED}")
    assert MASKED not in clean_for_model(f"error: {MASKED} was rejected").text
    # as registered by any redaction that saw the line (a log is redacted in pieces)
    forget_masks()
    clean_for_model(f"::ADD-MASK:: {MASKED}")
    assert MASKED not in clean_for_model(f"x{MASKED}y").text


@pytest.mark.unit
@pytest.mark.parametrize("value", ["$TOKEN", "${{ secrets.X }}", "***", "ab"])
def test_references_and_tiny_values_are_not_registered(value):
    remember_masks(f"::add-mask::{value}")
    assert redact(f"keep {value} and ab").text == f"keep {value} and ab"


PASSWORDS = {
    "docker-login": (f"docker login -u bot -p {DOCKER_PW} ghcr.io", DOCKER_PW),
    "mysql-attached": (f"mysql -u root -p{MYSQL_PW} app", MYSQL_PW),
    "long-flag": (f"curl --password={FLAG_PW} https://x", FLAG_PW),
    "long-flag-quoted": (f"twine upload --password '{FLAG_PW}' dist/*", FLAG_PW),
    "sshpass": (f"sshpass -p {SSH_PW} ssh deploy@host", SSH_PW),
    "netrc-one-line": (f"machine github.com login bot password {NETRC_PW}", NETRC_PW),
    "netrc-lines": (f"machine api.x.io\n  login me@x.io\n  password {NETRC_PW}\n", NETRC_PW),
    "wrapped-token": (f"{STAMP}token {HEAD}\n{STAMP}{TAIL}\n{STAMP}next", TOKEN),
    "wrapped-no-stamp": (f"export T={HEAD}\n{TAIL}", TOKEN),
}


@pytest.mark.unit
@pytest.mark.parametrize(("text", "secret"), list(PASSWORDS.values()), ids=list(PASSWORDS))
def test_password_shapes_and_wrapped_tokens_are_redacted(text, secret):
    out = redact(text).text
    assert secret not in out
    if secret == TOKEN:
        assert HEAD not in out and TAIL not in out


@pytest.mark.parametrize(
    "text",
    [
        "docker run -u 1000 -p 8080:80 nginx",
        "mkdir -p build/out",
        "echo $PW | docker login --password-stdin",
        "ghs_cache_dir\nnext",
        "Number of tries to enter a password: 3",
    ],
)
@pytest.mark.unit
def test_look_alikes_are_left_alone(text):
    assert redact(text).text == text


# -- end to end: the Action with a model; comment, summary, outputs, traces, request bodies -----


def _log() -> bytes:
    lines = [
        "##[group]Run ./deploy.sh",
        "./deploy.sh",
        "##[endgroup]",
        f"::add-mask::{MASKED}",
        f"docker login -u bot -p {DOCKER_PW} ghcr.io",
        f"mysql -u root -p{MYSQL_PW} app",
        f"machine ghcr.io login bot password {NETRC_PW}",
        f"token {HEAD}",
        TAIL,
        f"deploy: step 3 failed: {MASKED} was rejected",
        "##[error]Process completed with exit code 1.",
    ]
    return ("\n".join(f"{STAMP}{line}" for line in lines) + "\n").encode()


@pytest.mark.integration
def test_the_action_leaks_none_of_them(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    extraheader = next(s for s in SECRETS if s.kind == "auth-header extraheader")
    state = State(bot=BOT)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        facts = seed(state)
        state.job_logs[101] = _log()
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        repo = hostile_repo(tmp_path / "checkout", extraheader.line)
        answer = json.dumps(
            {"diagnosis": "The deploy credentials were rejected.", "confidence": 0.4}
        )
        llm.queue(tool_reply(("get_log", {})), Reply(body=openai_completion(answer)))
        run = run_action(
            tmp_path / "run",
            gh.url,
            "workflow_run",
            run_event(facts),
            llm="openai",
            repo_path=str(repo),
            patterns=str(library(tmp_path)),
        )
        bodies = "\n".join(r.body.decode() for r in llm.chat_requests)
    assert run.returncode == 0, run.stderr
    assert len(llm.chat_requests) == 2, "the model saw the window and the whole log"
    comments = "\n".join(c["body"] for c in state.comments.values())
    written = "\n".join([comments, run.summary, json.dumps(run.outputs), run.stdout, run.stderr])
    traces = read_traces(tmp_path / "run" / "runs")
    assert traces and "[REDACTED:add-mask]" in bodies
    leaks = [
        (secret, where)
        for secret in (MASKED, DOCKER_PW, MYSQL_PW, NETRC_PW, HEAD, TAIL)
        for where, text in (("written", written), ("traces", traces), ("model", bodies))
        if secret in text
    ]
    assert leaks == []
