"""`repopilot patterns import-matcher FILE.json` (issue 21): a GitHub problem matcher's
single-line matchers as patterns (engine/learn/matcher.py); what is left out, and why, on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from repopilot.errors import PatternError, UsageError
from repopilot.records import CATEGORIES


def add_import_matcher(sub: Any) -> None:
    """`repopilot patterns import-matcher FILE.json [--category C] [--source S] [--out DIR]`."""
    help_ = "turn a GitHub problem matcher (FILE.json) into patterns (single-line matchers)"
    p = sub.add_parser("import-matcher", help=help_, description=help_)
    p.add_argument("file", type=Path, metavar="FILE.json")
    p.add_argument("--category", choices=CATEGORIES, default="other")
    p.add_argument("--source", default=None, help="`owner/repo:path` or URL of the matcher file")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="write DIR/<name>.yaml")


def import_matcher(args: argparse.Namespace) -> int:
    """Print (or write) the patterns; say on stderr what was left out and why."""
    from repopilot.engine.learn.matcher import import_matchers

    try:
        doc = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UsageError(f"{args.file}: not a readable JSON file: {exc}") from None
    source = args.source or f"learned from {args.file.name}:1"
    try:
        got = import_matchers(doc, source, args.category, str(args.file))
    except PatternError as exc:
        raise UsageError(str(exc)) from None
    for why in got.skipped:
        print(f"repopilot: {args.file}: skipped {why}", file=sys.stderr)
    if not got.patterns:
        print(f"repopilot: {args.file}: no pattern could be made", file=sys.stderr)
        return 1
    import yaml

    text = yaml.safe_dump(got.data, sort_keys=False, allow_unicode=True, width=100)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    dest = args.out / f"matchers-{args.file.stem}.yaml"
    dest.write_text(text, encoding="utf-8")
    print(f"repopilot: wrote {dest} ({len(got.patterns)} patterns)", file=sys.stderr)
    return 0
