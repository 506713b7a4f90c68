"""The Actions runner's I/O: the Action's inputs, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `::error::`.

Inputs arrive as `INPUT_<NAME>` with the name uppercased and hyphens kept (`INPUT_GITHUB-TOKEN`);
an empty or missing input falls back to its Contract 2 environment variable. Both are read once,
with every other knob, into `repopilot.settings.Settings`; `read_inputs` checks what only the
Action requires of them (a token, an owner/name repository) and gives the handlers `Inputs`.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from repopilot.action.approval import DEFAULT_APPROVERS
from repopilot.records import EscalateMode
from repopilot.settings import ConfigError, Mode, Provider, Settings


@dataclass(frozen=True)
class Inputs:
    token: str
    llm: Provider
    model: str
    escalate: EscalateMode
    patterns: str | None
    repo_path: str | None
    approvers: frozenset[str]
    signing_key: str | None
    bot_login: str | None
    dry_run: bool
    mode: Mode
    result_file: str
    api_url: str
    timeout: float  # seconds per GitHub API request (REPOPILOT_GITHUB_TIMEOUT)
    max_wait: float  # longest single retry wait (REPOPILOT_GITHUB_MAX_WAIT)
    pace: float  # seconds between writes, 0 for none (REPOPILOT_GITHUB_PACE)
    server_url: str
    repository: str
    event_name: str
    event_path: str | None
    log_cap: int  # bytes of one job log downloaded (REPOPILOT_MAX_LOG_BYTES)


def read_inputs(settings: Settings) -> Inputs:
    """The Action's inputs from the settings; ConfigError names what the Action lacks."""
    gh, act = settings.github, settings.action
    if not gh.token:
        raise ConfigError("input github-token (or GITHUB_TOKEN) is not set")
    if gh.repository.count("/") != 1:
        raise ConfigError(f"GITHUB_REPOSITORY: expected owner/name, got {gh.repository!r}")
    return Inputs(
        token=gh.token,
        llm=settings.llm.provider,
        model=settings.llm.model,
        escalate=act.escalate,
        patterns=settings.engine.patterns,
        repo_path=act.repo_path,
        approvers=act.approvers or DEFAULT_APPROVERS,
        signing_key=act.signing_key,
        bot_login=act.bot_login,
        dry_run=act.dry_run,
        mode=act.mode,
        result_file=act.result_file,
        api_url=gh.api_url,
        timeout=gh.timeout,
        max_wait=gh.max_wait,
        pace=gh.pace,
        server_url=gh.server_url,
        repository=gh.repository,
        event_name=gh.event_name,
        event_path=gh.event_path,
        log_cap=gh.max_log_bytes,
    )


def write_outputs(path: str | None, values: Mapping[str, str]) -> None:
    """Append `name<<DELIM ... DELIM` blocks to GITHUB_OUTPUT (`path`); the delimiter is random
    and checked against the value, so no value (multi-line or hostile) can end its block early."""
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        for name, value in values.items():
            delim = f"ghadelimiter_{secrets.token_hex(16)}"
            while delim in value:
                delim = f"ghadelimiter_{secrets.token_hex(16)}"
            out.write(f"{name}<<{delim}\n{value}\n{delim}\n")


def write_summary(path: str | None, markdown: str) -> None:
    """Append markdown to the job summary (GITHUB_STEP_SUMMARY: `path`), if the runner gives one."""
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(markdown.rstrip("\n") + "\n\n")


def _escape(message: str) -> str:
    # workflow-command data escaping, so a message cannot inject a second command
    return message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def warning(message: str) -> None:
    """A `::warning::` annotation: something was skipped, the run goes on (the LLM, mostly)."""
    line = " ".join(message.split())
    print(f"::warning::{_escape(line)}", flush=True)


def fail(summary_path: str | None, message: str) -> int:
    """The one way the action itself fails: an `::error::` line, a summary line, exit 1."""
    line = " ".join(message.split()) or "RepoPilot failed"
    print(f"::error::{_escape(line)}", flush=True)
    try:
        write_summary(summary_path, f"**RepoPilot failed:** {line}")
    except OSError:
        pass
    print(f"repopilot: {line}", file=sys.stderr)
    return 1
