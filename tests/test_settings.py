"""One settings record, read from the environment once (issue 19): `repopilot.settings.Settings`.

The entry points (cli.py, commands/, action/entry.py) read the environment into it; no module
below them reads `os.environ` or `os.getenv`, which this file checks over the source with `ast`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from repopilot.agent.limits import Limits
from repopilot.settings import (
    DEFAULT_LOG_CAP,
    ConfigError,
    Settings,
    get_input,
)
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

PACKAGE = REPO_ROOT / "repopilot"
ENTRY_POINTS = ("cli.py", "commands/", "action/entry.py", "settings.py")


def _reads_environment(tree: ast.AST) -> list[int]:
    """Lines that name `os.environ`, `os.getenv`, `os.environb`, or import them from `os`."""
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("environ", "environb", "getenv", "getenvb", "putenv", "unsetenv")
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(a.name in ("environ", "environb", "getenv", "getenvb") for a in node.names):
                lines.append(node.lineno)
    return sorted(lines)


def _below_the_entry_points() -> list[Path]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not any(rel == e or (e.endswith("/") and rel.startswith(e)) for e in ENTRY_POINTS):
            out.append(path)
    return out


def test_no_module_below_the_entry_points_reads_the_environment():
    modules = _below_the_entry_points()
    assert len(modules) > 50, "the scan found the package"
    found = [
        f"{p.relative_to(REPO_ROOT)}:{line}"
        for p in modules
        for line in _reads_environment(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert found == [], "read the environment in an entry point and pass the setting down"


def test_the_scan_sees_each_way_of_reading_the_environment():
    source = (
        "import os\nfrom os import getenv\na = os.environ.get('X')\nb = os.getenv('Y')\n"
        "c = dict(os.environ)\nd = environ_like.get('Z')\n"
    )
    assert _reads_environment(ast.parse(source)) == [2, 3, 4, 5]


def test_defaults_without_any_variable():
    s = Settings.from_env({})
    assert s.llm.provider == "none" and s.llm.model == ""
    assert Limits.configured(s.agent) == Limits()
    assert (s.engine.patterns, s.engine.scan_engine) == (None, "set")
    assert s.trace_dir == ".runs" and not s.no_color
    assert (s.github.timeout, s.github.max_wait, s.github.pace) == (30.0, 60.0, 1.0)
    assert s.github.max_log_bytes == DEFAULT_LOG_CAP
    assert s.github.api_url == "https://api.github.com"
    assert s.action.origin_budget == 30 and s.action.mode == "all" and not s.action.dry_run


def test_every_documented_knob_is_read():
    env = {
        "REPOPILOT_LLM": "OpenAI",
        "REPOPILOT_MODEL": "m",
        "OPENAI_API_KEY": "sk-x",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OLLAMA_HOST": "http://127.0.0.1:8",
        "REPOPILOT_PATTERNS": "/lib",
        "REPOPILOT_TRACE_DIR": "/traces",
        "REPOPILOT_MAX_STEPS": "2",
        "REPOPILOT_MAX_TOKENS": "900",
        "REPOPILOT_WALL_CLOCK_S": "1.5",
        "REPOPILOT_GITHUB_TIMEOUT": "5",
        "REPOPILOT_GITHUB_MAX_WAIT": "7",
        "REPOPILOT_GITHUB_PACE": "0",
        "REPOPILOT_MAX_LOG_BYTES": "1000",
        "REPOPILOT_MAX_ZIP_BYTES": "2000",
        "REPOPILOT_CACHE_DIR": "/cache",
        "REPOPILOT_SCAN_ENGINE": "reference",
        "REPOPILOT_ORIGIN_BUDGET": "0",
        "GITHUB_API_URL": "https://ghe.example/api/v3",
        "NO_COLOR": "1",
        "PATH": "/opt/git/bin",
    }
    s = Settings.from_env(env)
    assert (s.llm.provider, s.llm.model, s.llm.openai_api_key) == ("openai", "m", "sk-x")
    assert (s.llm.openai_base_url, s.llm.ollama_host) == (
        env["OPENAI_BASE_URL"],
        env["OLLAMA_HOST"],
    )
    assert (s.engine.patterns, s.engine.cache_dir, s.engine.scan_engine) == (
        "/lib",
        Path("/cache"),
        "reference",
    )
    assert s.trace_dir == "/traces" and s.no_color and s.exec_path == "/opt/git/bin"
    assert Limits.configured(s.agent) == Limits(max_steps=2, max_tokens=900, wall_clock_s=1.5)
    assert (s.github.timeout, s.github.max_wait, s.github.pace) == (5.0, 7.0, 0.0)
    assert (s.github.max_log_bytes, s.github.max_zip_bytes) == (1000, 2000)
    assert s.github.api_url == env["GITHUB_API_URL"] and s.action.origin_budget == 0


def test_the_cache_directory_follows_xdg_then_home():
    assert Settings.from_env({"XDG_CACHE_HOME": "/x"}).engine.cache_dir == Path("/x/repopilot")
    assert Settings.from_env({"HOME": "/h"}).engine.cache_dir == Path("/h/.cache/repopilot")


def test_an_input_wins_over_its_contract_2_variable():
    env = {"REPOPILOT_LLM": "ollama", "INPUT_LLM": "openai", "INPUT_ORIGIN-BUDGET": "5"}
    env |= {"REPOPILOT_ORIGIN_BUDGET": "9", "INPUT_DRY_RUN": "true", "GITHUB_TOKEN": "t"}
    s = Settings.from_env(env)
    assert s.llm.provider == "openai" and s.action.origin_budget == 5 and s.action.dry_run
    assert s.github.token == "t"  # the fallback of input github-token
    assert get_input({"INPUT_REPO_PATH": " ", "GITHUB_WORKSPACE": "/w"}, "repo-path") == "/w"


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"REPOPILOT_MAX_STEPS": "many"}, "REPOPILOT_MAX_STEPS='many': not a number"),
        ({"REPOPILOT_MAX_TOKENS": "0"}, "REPOPILOT_MAX_TOKENS='0': must be positive"),
        ({"REPOPILOT_WALL_CLOCK_S": "nan"}, "REPOPILOT_WALL_CLOCK_S='nan': must be positive"),
        ({"REPOPILOT_MAX_LOG_BYTES": "1e6"}, "REPOPILOT_MAX_LOG_BYTES='1e6': not a number"),
        ({"REPOPILOT_GITHUB_TIMEOUT": "-1"}, "REPOPILOT_GITHUB_TIMEOUT: expected seconds"),
        ({"REPOPILOT_LLM": "gemini"}, "REPOPILOT_LLM: unknown LLM provider 'gemini'"),
        ({"INPUT_LLM": "gpt"}, "input llm: unknown LLM provider 'gpt'"),
        ({"REPOPILOT_SCAN_ENGINE": "fast"}, "REPOPILOT_SCAN_ENGINE: expected set or reference"),
        ({"INPUT_ORIGIN-BUDGET": "lots"}, "input origin-budget: expected 0 to 1000"),
        ({"REPOPILOT_ORIGIN_BUDGET": "5000"}, "REPOPILOT_ORIGIN_BUDGET: expected 0 to 1000"),
        ({"INPUT_DRY-RUN": "maybe"}, "input dry-run: expected true or false"),
        ({"REPOPILOT_MODE": "both"}, "REPOPILOT_MODE: expected one of all, analyze, post"),
        ({"INPUT_ESCALATE": "always"}, "input escalate: expected one of auto, fixable"),
    ],
)
def test_a_bad_value_is_one_line_naming_where_it_came_from(env, names):
    with pytest.raises(ConfigError) as info:
        Settings.from_env(env)
    message = str(info.value)
    assert message.startswith(names) and "\n" not in message
    assert isinstance(info.value, ValueError)  # callers that caught ValueError still do


def test_secrets_stay_out_of_the_record_repr():
    env = {"OPENAI_API_KEY": "sk-secret", "GITHUB_TOKEN": "ghs_secret"}
    env |= {"REPOPILOT_SIGNING_KEY": "hmac-secret"}
    text = repr(Settings.from_env(env))
    assert "secret" not in text
