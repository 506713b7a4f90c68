"""Every knob RepoPilot reads from its environment, read once by an entry point into one record.

`Settings.from_env(os.environ)` is called by `repopilot.cli` (for every command) and by the
Action's `main(env)`; what each stage needs is passed down from there as arguments and records.
No module below the entry points reads `os.environ` (tests/test_settings.py checks).

Contract 2 variables (README "Configuration"), and the Action's inputs (Contract 3): an input
arrives as `INPUT_<NAME>` (hyphens kept, or underscores in the composite action) and falls back,
when empty or missing, to its Contract 2 variable (`FALLBACK`). A value that cannot be used
raises ConfigError with one line naming the variable it came from.

Only the standard library and the bottom floor (errors, records) are imported here: `classify`
builds this record on every start, and pydantic would cost more than a small log's classification.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast, get_args

from repopilot.errors import InputError
from repopilot.records import ESCALATE_MODES, EscalateMode

Provider = Literal["none", "openai", "ollama"]
PROVIDERS: tuple[str, ...] = get_args(Provider)
Mode = Literal["all", "analyze", "post", "report"]
"""all: analyze and post in one job; analyze / post: the two halves of the split workflow;
report: the memory's report as the job summary (issue 28, action/report_mode.py)."""
MODES: tuple[str, ...] = get_args(Mode)
ScanEngine = Literal["set", "reference"]
"""set: the set engine (Hyperscan/RE2, the default); reference: the per-pattern path."""

DEFAULT_LOG_CAP = 512 * 1024 * 1024
DEFAULT_ZIP_CAP = 1024 * 1024 * 1024
DEFAULT_ORIGIN_BUDGET = 30
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off", ""})

# Action input -> the Contract 2 variable it falls back to (Contract 3).
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
    "origin-budget": "REPOPILOT_ORIGIN_BUDGET",
    "memory": "REPOPILOT_MEMORY",
}


class ConfigError(InputError, ValueError):
    """A variable or Action input that cannot be used (one line: which, and why)."""


@dataclass(frozen=True)
class LLMSettings:
    """Which model answers, and where (Contract 2); `provider` none: deterministic only."""

    provider: Provider = "none"
    model: str = ""  # empty: the provider's default model
    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    ollama_host: str | None = None


@dataclass(frozen=True)
class AgentSettings:
    """Overrides of the agent's run limits (`repopilot.agent.limits.Limits`); None keeps the
    default there, so the defaults have one home."""

    max_steps: int | None = None  # REPOPILOT_MAX_STEPS
    max_tokens: int | None = None  # REPOPILOT_MAX_TOKENS
    wall_clock_s: float | None = None  # REPOPILOT_WALL_CLOCK_S


@dataclass(frozen=True)
class EngineSettings:
    """The pattern library and how it is matched."""

    patterns: str | None = None  # REPOPILOT_PATTERNS (input `patterns`); None: the bundled one
    cache_dir: Path | None = None  # REPOPILOT_CACHE_DIR, else $XDG_CACHE_HOME/repopilot, else ~
    scan_engine: ScanEngine = "set"  # REPOPILOT_SCAN_ENGINE


@dataclass(frozen=True)
class GitHubSettings:
    """The runner's GitHub variables and how RepoPilot talks to the API."""

    token: str = field(default="", repr=False)  # input github-token, else GITHUB_TOKEN
    api_url: str = "https://api.github.com"
    server_url: str = "https://github.com"
    repository: str = ""  # owner/name
    event_name: str = ""
    event_path: str | None = None
    output: str | None = None  # GITHUB_OUTPUT
    step_summary: str | None = None  # GITHUB_STEP_SUMMARY
    run_id: str = ""
    run_attempt: str = ""
    workflow_ref: str | None = None
    sha: str = ""
    timeout: float = 30.0  # REPOPILOT_GITHUB_TIMEOUT: seconds per request
    max_wait: float = 60.0  # REPOPILOT_GITHUB_MAX_WAIT: longest single retry wait
    pace: float = 1.0  # REPOPILOT_GITHUB_PACE: seconds between writes, 0 for none
    max_log_bytes: int = DEFAULT_LOG_CAP  # REPOPILOT_MAX_LOG_BYTES: one job log's download cap
    max_zip_bytes: int = DEFAULT_ZIP_CAP  # REPOPILOT_MAX_ZIP_BYTES: a run zip's download cap


@dataclass(frozen=True)
class ActionSettings:
    """The Action's own inputs (Contract 3) that no CLI command reads."""

    escalate: EscalateMode = "auto"
    repo_path: str | None = None  # input repo-path, else GITHUB_WORKSPACE
    approvers: frozenset[str] = frozenset()  # empty: the default roles (action/approval.py)
    signing_key: str | None = field(default=None, repr=False)
    bot_login: str | None = None
    dry_run: bool = False
    mode: Mode = "all"
    result_file: str = "repopilot-result.json"
    origin_budget: int = DEFAULT_ORIGIN_BUDGET  # 0: origins off
    memory: bool = True  # issue 28: read and write the repository's memory (docs/MEMORY.md)


@dataclass(frozen=True)
class Settings:
    """Everything configurable, typed and validated (module docstring)."""

    llm: LLMSettings = LLMSettings()
    agent: AgentSettings = AgentSettings()
    engine: EngineSettings = EngineSettings()
    github: GitHubSettings = GitHubSettings()
    action: ActionSettings = ActionSettings()
    trace_dir: str = ".runs"  # REPOPILOT_TRACE_DIR
    no_color: bool = False  # NO_COLOR set to anything non-empty (no-color.org)
    exec_path: str = os.defpath  # PATH: the one variable the git child processes get from us

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Read and validate every knob; ConfigError names the first variable that is bad."""
        read = _Reader(env)
        return cls(
            llm=read.llm(),
            agent=read.agent(),
            engine=read.engine(),
            github=read.github(),
            action=read.action(),
            trace_dir=read.var("REPOPILOT_TRACE_DIR") or ".runs",
            no_color=bool(env.get("NO_COLOR")),
            exec_path=env.get("PATH") or os.defpath,
        )


def get_input(env: Mapping[str, str], name: str) -> str:
    """`INPUT_<NAME>` (also with underscores), else the Contract 2 variable, else ""."""
    return _source(env, name)[1]


def _where(env: Mapping[str, str], name: str) -> str:
    """What to call an input's value in an error: `input NAME`, or the variable it came from."""
    return _source(env, name)[0]


def _source(env: Mapping[str, str], name: str) -> tuple[str, str]:
    """(what to call it in an error, the stripped value) of an Action input."""
    upper = name.upper()
    for key in (f"INPUT_{upper}", f"INPUT_{upper.replace('-', '_')}"):
        value = env.get(key, "").strip()
        if value:
            return f"input {name}", value
    var = FALLBACK.get(name, "")
    return (var or f"input {name}"), (env.get(var, "").strip() if var else "")


class _Reader:
    """Reads one environment; each method one group of Settings."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env

    def var(self, name: str) -> str:
        return self.env.get(name, "").strip()

    def choice(self, name: str, raw: str, allowed: tuple[str, ...], default: str) -> str:
        """`raw` (input `name`'s value), lowercased, when it is one of `allowed`."""
        value = raw.lower() or default
        if value not in allowed:
            where = _where(self.env, name)
            raise ConfigError(f"{where}: expected one of {', '.join(allowed)}, got {raw!r}")
        return value

    def positive(self, name: str, kind: type[int] | type[float]) -> int | float | None:
        raw = self.var(name)
        if not raw:
            return None
        try:
            value = kind(raw)
        except ValueError:
            raise ConfigError(f"{name}={raw!r}: not a number") from None
        if not value > 0 or value == float("inf"):
            raise ConfigError(f"{name}={raw!r}: must be positive")
        return value

    def seconds(self, name: str, default: float, zero: bool = False) -> float:
        raw = self.var(name)
        try:
            value = float(raw) if raw else default
        except ValueError:
            value = -1.0
        if not (0 <= value if zero else 0 < value) or value > 3600:
            raise ConfigError(f"{name}: expected seconds between 0 and 3600, got {raw!r}")
        return value

    def llm(self) -> LLMSettings:
        env = self.env
        raw = get_input(env, "llm")
        provider = raw.lower() or "none"
        if provider not in PROVIDERS:
            allowed, where = ", ".join(PROVIDERS), _where(env, "llm")
            raise ConfigError(f"{where}: unknown LLM provider {raw!r}, expected one of {allowed}")
        return LLMSettings(
            provider=cast(Provider, provider),
            model=get_input(env, "model"),
            openai_api_key=self.env.get("OPENAI_API_KEY") or None,
            openai_base_url=self.env.get("OPENAI_BASE_URL") or None,
            ollama_host=self.env.get("OLLAMA_HOST") or None,
        )

    def agent(self) -> AgentSettings:
        steps = self.positive("REPOPILOT_MAX_STEPS", int)
        tokens = self.positive("REPOPILOT_MAX_TOKENS", int)
        return AgentSettings(
            max_steps=None if steps is None else int(steps),
            max_tokens=None if tokens is None else int(tokens),
            wall_clock_s=self.positive("REPOPILOT_WALL_CLOCK_S", float),
        )

    def engine(self) -> EngineSettings:
        env = self.env
        raw = self.var("REPOPILOT_SCAN_ENGINE")
        if raw not in ("", "set", "reference"):
            raise ConfigError(f"REPOPILOT_SCAN_ENGINE: expected set or reference, got {raw!r}")
        return EngineSettings(
            patterns=get_input(env, "patterns") or None,
            cache_dir=self.cache_dir(),
            scan_engine="reference" if raw == "reference" else "set",
        )

    def cache_dir(self) -> Path:
        if own := self.env.get("REPOPILOT_CACHE_DIR"):
            return Path(own)
        home = self.env.get("HOME") or os.path.expanduser("~")
        base = self.env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
        return Path(base) / "repopilot"

    def cap(self, name: str, default: int) -> int:
        value = self.positive(name, int)
        return default if value is None else int(value)

    def github(self) -> GitHubSettings:
        env = self.env
        return GitHubSettings(
            token=get_input(env, "github-token"),
            api_url=self.var("GITHUB_API_URL") or "https://api.github.com",
            server_url=self.var("GITHUB_SERVER_URL") or "https://github.com",
            repository=env.get("GITHUB_REPOSITORY", ""),
            event_name=env.get("GITHUB_EVENT_NAME", ""),
            event_path=env.get("GITHUB_EVENT_PATH") or None,
            output=env.get("GITHUB_OUTPUT") or None,
            step_summary=env.get("GITHUB_STEP_SUMMARY") or None,
            run_id=env.get("GITHUB_RUN_ID", ""),
            run_attempt=env.get("GITHUB_RUN_ATTEMPT", ""),
            workflow_ref=env.get("GITHUB_WORKFLOW_REF") or None,
            sha=env.get("GITHUB_SHA", ""),
            timeout=self.seconds("REPOPILOT_GITHUB_TIMEOUT", 30.0),
            max_wait=self.seconds("REPOPILOT_GITHUB_MAX_WAIT", 60.0),
            pace=self.seconds("REPOPILOT_GITHUB_PACE", 1.0, zero=True),
            max_log_bytes=self.cap("REPOPILOT_MAX_LOG_BYTES", DEFAULT_LOG_CAP),
            max_zip_bytes=self.cap("REPOPILOT_MAX_ZIP_BYTES", DEFAULT_ZIP_CAP),
        )

    def action(self) -> ActionSettings:
        env = self.env
        dry = get_input(env, "dry-run")
        if dry.lower() not in _TRUE | _FALSE:
            raise ConfigError(f"{_where(env, 'dry-run')}: expected true or false, got {dry!r}")
        memory = get_input(env, "memory").lower() or "true"
        if memory not in _TRUE | _FALSE:
            raise ConfigError(f"{_where(env, 'memory')}: expected true or false, got {memory!r}")
        escalate = get_input(env, "escalate")
        if escalate.lower() == "unknown":  # action.yml's name for "auto"
            escalate = "auto"
        approvers = get_input(env, "approvers").replace(",", " ").split()
        return ActionSettings(
            escalate=cast(EscalateMode, self.choice("escalate", escalate, ESCALATE_MODES, "auto")),
            repo_path=get_input(env, "repo-path") or None,
            approvers=frozenset(approvers),
            signing_key=get_input(env, "signing-key") or None,
            bot_login=get_input(env, "bot-login") or None,
            dry_run=dry.lower() in _TRUE,
            mode=cast(Mode, self.choice("mode", get_input(env, "mode"), MODES, "all")),
            result_file=get_input(env, "result-file") or "repopilot-result.json",
            origin_budget=self.budget(get_input(env, "origin-budget")),
            memory=memory in _TRUE,
        )

    def budget(self, raw: str) -> int:
        """The origin request budget (input origin-budget): a whole number, 0 (off) to 1000."""
        if not raw:
            return DEFAULT_ORIGIN_BUDGET
        if not raw.isdigit() or int(raw) > 1000:
            raise ConfigError(
                f"{_where(self.env, 'origin-budget')}: expected 0 to 1000, got {raw!r}"
            )
        return int(raw)
