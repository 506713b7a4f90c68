"""`repopilot learn PATH --line N [--category C] [--title T] [--hint H] [--base-log PATH ...]
[--id ID] [--out DIR] [--format yaml|json] [--patterns DIR ...] [--no-builtin]` (docs/CONTRACTS.md
Contract 6): one pattern that makes line N of PATH the evidence of its verdict.

Without `--out` it prints the pattern file; with it, writes `DIR/<id>.yaml`. When no safe
pattern can be made it says why on stderr and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from repopilot.commands.patterns import lint
from repopilot.engine.learn.learner import Learned, LearnRefused, LearnRequest, learn, to_yaml
from repopilot.engine.library.layers import load_layers
from repopilot.engine.library.loader import Pattern
from repopilot.errors import LogError, PatternError, UsageError
from repopilot.records import CATEGORIES


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="the job log (plain, Actions text, .gz)")
    p.add_argument("--line", type=_line, required=True, metavar="N", help="1-based cause line")
    p.add_argument("--category", choices=CATEGORIES, default="other")
    p.add_argument("--title", default=None, help="title template (default: from the line)")
    p.add_argument("--hint", default=None, help="what to do next (a template too)")
    p.add_argument(
        "--base-log",
        action="append",
        default=[],
        metavar="PATH",
        help="a passing log of the same job: the pattern must match none of its lines",
    )
    p.add_argument("--id", default=None, metavar="ID", help="pattern id ([a-z0-9._-])")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="write DIR/<id>.yaml")
    p.add_argument("--format", choices=("yaml", "json"), default="yaml")
    p.add_argument(
        "--patterns",
        action="append",
        default=[],
        metavar="DIR",
        help="repository patterns the learned one sits on (repeatable)",
    )
    p.add_argument("--no-builtin", action="store_true", help="leave the built-in library out")


def _line(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a line number of at least 1, not {text!r}")
    return int(text)


def lint_one(p: Pattern) -> list[str]:
    """`repopilot patterns lint`'s errors for one pattern."""
    return [str(x) for x in lint([p], 5.0) if x.error]


def run(args: argparse.Namespace, settings: object = None) -> int:
    try:
        library = load_layers(args.patterns, builtin=not args.no_builtin)
    except PatternError as exc:
        raise UsageError(str(exc)) from None
    req = LearnRequest(
        path=args.path,
        line=args.line,
        category=args.category,
        title=args.title,
        hint=args.hint,
        base_logs=tuple(args.base_log),
        pattern_id=args.id,
    )
    try:
        got = learn(req, library, lint_one)
    except LearnRefused as exc:
        print(f"repopilot: {exc}", file=sys.stderr)
        return 1
    except LogError as exc:
        raise UsageError(str(exc)) from None
    text = render(got, args.format)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    dest = args.out / f"{got.id}.yaml"  # JSON is YAML too: the library loads either
    dest.write_text(text, encoding="utf-8")
    print(f"repopilot: wrote {dest}", file=sys.stderr)
    return 0


def render(got: Learned, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(got.data, indent=2, ensure_ascii=False) + "\n"
    return to_yaml(got)


def eval_learn(args: argparse.Namespace) -> int:
    """`repopilot eval gha|logchunks DIR CSV --learn`: the figures of engine/measure/learn_eval.py,
    per repository and in total."""
    from repopilot.engine.library.loader import load_library
    from repopilot.engine.measure import learn_eval as le
    from repopilot.errors import EvalError

    try:
        library = load_library(args.patterns)
        if args.corpus == "gha":
            cases = le.gha(args.dir, args.labels)
        else:
            cases = le.logchunks(args.dir, args.labels)
    except (EvalError, PatternError) as exc:
        raise UsageError(str(exc)) from None
    figures = le.evaluate(cases, library, lint_one)
    total = le.total(figures)
    if args.format == "json":
        data = {"corpus": args.corpus, "total": le.as_dict(total),
                "per_repository": [le.as_dict(f) for f in figures]}  # fmt: skip
        print(json.dumps(data, indent=2))
        return 0
    print(le.render(figures, total))
    return 0
