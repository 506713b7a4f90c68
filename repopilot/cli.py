"""`repopilot` command line: one module per subcommand under repopilot/commands/.

Each command module defines `add_arguments(parser)` and `run(args, settings) -> int`; its name and
help text are in `COMMANDS` here. The environment is read here, once, into `Settings`
(repopilot/settings.py), and passed to the command: no module below reads `os.environ`.
Only the chosen command's module is imported, so start-up stays small and one command's heavy
imports (PyGithub, an LLM SDK) never slow down `classify`.
Errors a user can cause are one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType

from repopilot import __version__
from repopilot.errors import InputError

# The one source of each command's help text: listing the commands must not import them.
COMMANDS = {
    "classify": "Classify failed CI logs with the pattern library (offline, no token, no LLM).",
    "triage": "Triage failed CI logs against a checkout: patterns first, the LLM only when needed.",
    "context": "Print the redacted log window the agent would see for each failed job (no LLM).",
    "patterns": "Test or lint the YAML pattern library.",
    "eval": "Measure the classifier on labelled logs (gha corpus or LogChunks).",
    "trace": "Show a run trace (.runs/<run_id>.json) as a timeline, or replay it and report divergence.",
    "action": "Run as the GitHub Action: triage a failed workflow_run or handle /repopilot commands.",
    "learn": "Learn one pattern from a log and its cause line (validated before it is written).",
    "calibrate": "Refit the calibrated confidence on labelled logs by repository-disjoint folds.",
    "report": "Report on the seen-before store and run traces: top failures, who decided, tokens.",
}


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"repopilot.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"repopilot.commands.{name}":
            return None
        raise


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="repopilot",
        description="Triage failed CI logs: patterns first, an LLM only if needed.",
    )
    parser.add_argument("--version", action="version", version=f"repopilot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            mod = _load(name)
            if mod is not None:
                mod.add_arguments(p)
                p.set_defaults(_run=mod.run, _config_error=getattr(mod, "config_error", None))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    from repopilot.settings import ConfigError, Settings  # not for listing the commands

    try:
        try:
            settings = Settings.from_env(os.environ)
        except ConfigError as exc:
            if args._config_error is None:  # a command that reports a bad variable its own way
                raise
            return int(args._config_error(str(exc)))
        return int(args._run(args, settings) or 0)
    except InputError as exc:  # UsageError, a bad variable, every other one-line input error
        print(f"repopilot: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("repopilot: interrupted", file=sys.stderr)
        return 130
