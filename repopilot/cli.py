"""`repopilot` command line: one module per subcommand under repopilot/commands/.

Each command module defines `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`.
Errors a user can cause are one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from repopilot import __version__

COMMANDS = ("classify", "triage", "context", "patterns", "eval", "trace", "action")


class UsageError(Exception):
    """A user-caused error: printed as `repopilot: <message>` with exit status 2."""


def _load(name: str):
    try:
        return importlib.import_module(f"repopilot.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"repopilot.commands.{name}":
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="repopilot",
        description="Triage failed CI logs: patterns first, an LLM only if needed.",
    )
    parser.add_argument("--version", action="version", version=f"repopilot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        mod = _load(name)
        if mod is None:
            continue
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args._run(args) or 0)
    except UsageError as exc:
        print(f"repopilot: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("repopilot: interrupted", file=sys.stderr)
        return 130
