"""Runner I/O: INPUT_* with hyphens and fallbacks, GITHUB_OUTPUT heredocs, the one error line."""

from __future__ import annotations

import pytest

from repopilot.action import runner
from repopilot.github.events import (
    EventError,
    is_own_run,
    parse_command,
    parse_run_event,
    read_event,
)
from repopilot.settings import ConfigError, Settings
from tests.loopback.github_action import parse_outputs
from tests.loopback.github_server import fixture

pytestmark = pytest.mark.unit

BASE = {"GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "t"}


def test_inputs_keep_hyphens_and_fall_back_to_contract_2():
    env = {
        **BASE,
        "INPUT_GITHUB-TOKEN": "",
        "INPUT_BOT-LOGIN": "app[bot]",
        "REPOPILOT_LLM": "ollama",
        "INPUT_APPROVERS": "admin, maintain",
        "INPUT_ESCALATE": "unknown",
    }
    inp = runner.read_inputs(Settings.from_env(env))
    assert inp.token == "t" and inp.bot_login == "app[bot]" and inp.llm == "ollama"
    assert inp.approvers == {"admin", "maintain"} and inp.escalate == "auto"
    assert inp.api_url == "https://api.github.com" and not inp.dry_run and inp.mode == "all"


@pytest.mark.parametrize(
    "env,where",
    [
        ({"INPUT_LLM": "gpt"}, "input llm"),
        ({"INPUT_DRY-RUN": "yes please"}, "input dry-run"),
        ({"GITHUB_TOKEN": ""}, "github-token"),
        ({"GITHUB_REPOSITORY": "x"}, "GITHUB_REPOSITORY"),
    ],
)
def test_bad_inputs_name_themselves(env, where):
    with pytest.raises(ConfigError, match=where):
        runner.read_inputs(Settings.from_env({**BASE, **env}))


def test_outputs_use_unforgeable_delimiters(tmp_path):
    out = tmp_path / "out"
    hostile = "a\nghadelimiter_x\ncategory<<EOF\nforged\nEOF"
    runner.write_outputs(str(out), {"category": "test_failure", "title": hostile})
    assert parse_outputs(out.read_text()) == {"category": "test_failure", "title": hostile}


def test_fail_prints_one_escaped_error_line(tmp_path, capsys):
    summary = tmp_path / "s.md"
    code = runner.fail(str(summary), "bad\n::warning::x 100%")
    lines = capsys.readouterr().out.splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("::error::")
    assert "::warning::" in lines[0] and "%25" in lines[0]
    assert "RepoPilot failed" in summary.read_text()


def test_command_must_be_the_whole_body():
    assert parse_command("/repopilot apply fix-abc1\n") == ("apply", "fix-abc1")
    for body in (
        "> /repopilot apply fix-abc1",
        "/repopilot apply fix-abc1 now",
        "/repopilot apply x",
        "`/repopilot apply fix-abc1`",
        None,
        "",
    ):
        assert parse_command(body) is None


def test_event_strings_are_data(tmp_path):
    event = fixture("event-workflow_run-failure.json")
    event["workflow_run"]["head_branch"] = "$(id)`; rm -rf /`"
    path = tmp_path / "e.json"
    import json

    path.write_text(json.dumps(event))
    run = parse_run_event(read_event(str(path)))
    assert run.workflow_run.head_branch == "$(id)`; rm -rf /`"
    with pytest.raises(EventError):
        read_event(str(tmp_path / "missing.json"))
    path.write_text("[1]")
    with pytest.raises(EventError):
        read_event(str(path))


def test_own_workflow_and_bot_runs_are_recognized():
    event = parse_run_event(fixture("event-workflow_run-failure.json"))
    ref = "octo-org/octo-repo/.github/workflows/test.yml@refs/heads/main"
    assert is_own_run(event, ref, "bot")
    assert not is_own_run(event, "o/r/.github/workflows/other.yml@refs/heads/main", "bot")
    assert is_own_run(event, None, "Codertocat")
