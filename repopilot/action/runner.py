"""The Actions runner's I/O: `INPUT_*` inputs, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `::error::`.

Inputs arrive as `INPUT_<NAME>` with the name uppercased and hyphens kept (`INPUT_GITHUB-TOKEN`);
an empty or missing input falls back to its Contract 2 environment variable.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, cast, get_args

from repopilot.action.approval import DEFAULT_APPROVERS
from repopilot.github import origin_setup
from repopilot.records import ESCALATE_MODES, EscalateMode

Provider = Literal["none", "openai", "ollama"]
Mode = Literal["all", "analyze", "post"]
"""all: analyze and post in one job; analyze / post: the two halves of the split workflow."""
LLMS: tuple[str, ...] = get_args(Provider)
MODES: tuple[str, ...] = get_args(Mode)
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}

# input name -> Contract 2 variable it falls back to
FALLBACK = {
    "github-token": "GITHUB_TOKEN",
    "llm": "REPOPILOT_LLM",
    "model": "REPOPILOT_MODEL",
    "escalate": "REPOPILOT_ESCALATE",
    "patterns": "REPOPILOT_PATTERNS",
    "repo-path": "GITHUB_WORKSPACE",
    "approvers": "REPOPILOT_APPROVERS",
    "signing-key": "REPOPILOT_SIGNING_KEY",
    "bot-login": "REPOPILOT_BOT_LOGIN",
    "dry-run": "REPOPILOT_DRY_RUN",
    "mode": "REPOPILOT_MODE",
    "result-file": "REPOPILOT_RESULT_FILE",
}


class ConfigError(Exception):
    """An input or runner variable is missing or invalid (one line: which and why)."""


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


def get_input(env: Mapping[str, str], name: str) -> str:
    """`INPUT_<NAME>` (also with underscores), else the Contract 2 variable, else ""."""
    upper = name.upper()
    for key in (f"INPUT_{upper}", f"INPUT_{upper.replace('-', '_')}", FALLBACK.get(name, "")):
        value = env.get(key, "").strip() if key else ""
        if value:
            return value
    return ""


def read_inputs(env: Mapping[str, str]) -> Inputs:
    """All inputs, validated; ConfigError names the first bad one."""
    dry = get_input(env, "dry-run").lower()
    if dry not in _TRUE | _FALSE:
        raise ConfigError(f"input dry-run: expected true or false, got {dry!r}")
    dry_run = dry in _TRUE
    token = get_input(env, "github-token")
    if not token:
        raise ConfigError("input github-token (or GITHUB_TOKEN) is not set")
    llm = get_input(env, "llm").lower() or "none"
    if llm not in LLMS:
        raise ConfigError(f"input llm: expected one of {', '.join(LLMS)}, got {llm!r}")
    escalate = get_input(env, "escalate").lower() or "auto"
    escalate = "auto" if escalate == "unknown" else escalate  # action.yml's name for "auto"
    mode = get_input(env, "mode").lower() or "all"
    if mode not in MODES:
        raise ConfigError(f"input mode: expected one of {', '.join(MODES)}, got {mode!r}")
    if escalate not in ESCALATE_MODES:
        raise ConfigError(
            f"input escalate: expected one of {', '.join(ESCALATE_MODES)}, got {escalate!r}"
        )
    approvers = (
        frozenset(get_input(env, "approvers").replace(",", " ").split()) or DEFAULT_APPROVERS
    )
    repository = env.get("GITHUB_REPOSITORY", "")
    if repository.count("/") != 1:
        raise ConfigError(f"GITHUB_REPOSITORY: expected owner/name, got {repository!r}")
    return Inputs(
        token=token,
        llm=cast(Provider, llm),
        model=get_input(env, "model"),
        escalate=cast(EscalateMode, escalate),
        patterns=get_input(env, "patterns") or None,
        repo_path=get_input(env, "repo-path") or None,
        approvers=approvers,
        signing_key=get_input(env, "signing-key") or None,
        bot_login=get_input(env, "bot-login") or None,
        dry_run=dry_run,
        mode=cast(Mode, mode),
        result_file=get_input(env, "result-file") or "repopilot-result.json",
        api_url=env.get("GITHUB_API_URL", "").strip() or "https://api.github.com",
        timeout=_seconds(env, "REPOPILOT_GITHUB_TIMEOUT", 30.0),
        max_wait=_seconds(env, "REPOPILOT_GITHUB_MAX_WAIT", 60.0),
        pace=_seconds(env, "REPOPILOT_GITHUB_PACE", 1.0, zero=True),
        server_url=env.get("GITHUB_SERVER_URL", "").strip() or "https://github.com",
        repository=repository,
        event_name=env.get("GITHUB_EVENT_NAME", ""),
        event_path=env.get("GITHUB_EVENT_PATH") or None,
    )


def _seconds(env: Mapping[str, str], name: str, default: float, zero: bool = False) -> float:
    raw = env.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        value = -1.0
    if not (0 <= value if zero else 0 < value) or value > 3600:
        raise ConfigError(f"{name}: expected seconds between 0 and 3600, got {raw!r}")
    return value


def write_outputs(env: Mapping[str, str], values: Mapping[str, str]) -> None:
    """Append `name<<DELIM ... DELIM` blocks to GITHUB_OUTPUT; the delimiter is random and
    checked against the value, so no value (multi-line or hostile) can end its block early."""
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        for name, value in values.items():
            delim = f"ghadelimiter_{secrets.token_hex(16)}"
            while delim in value:
                delim = f"ghadelimiter_{secrets.token_hex(16)}"
            out.write(f"{name}<<{delim}\n{value}\n{delim}\n")


def write_summary(env: Mapping[str, str], markdown: str) -> None:
    """Append markdown to the job summary (GITHUB_STEP_SUMMARY), if the runner provides one."""
    path = env.get("GITHUB_STEP_SUMMARY")
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


def fail(env: Mapping[str, str], message: str) -> int:
    """The one way the action itself fails: an `::error::` line, a summary line, exit 1."""
    line = " ".join(message.split()) or "RepoPilot failed"
    print(f"::error::{_escape(line)}", flush=True)
    try:
        write_summary(env, f"**RepoPilot failed:** {line}")
    except OSError:
        pass
    print(f"repopilot: {line}", file=sys.stderr)
    return 1


BUDGET_ENV = "REPOPILOT_ORIGIN_BUDGET"


def budget_from(env: Mapping[str, str]) -> int:
    """The request budget: input `origin-budget`, else REPOPILOT_ORIGIN_BUDGET, else 30.
    Raises ValueError with one line for anything but a whole number from 0 (off) to 1000."""
    raw = get_input(env, "origin-budget") or env.get(BUDGET_ENV, "").strip()
    if not raw:
        return origin_setup.DEFAULT_BUDGET
    if not raw.isdigit() or int(raw) > 1000:
        raise ValueError(f"origin-budget / {BUDGET_ENV}: expected 0 to 1000, got {raw!r}")
    return int(raw)
