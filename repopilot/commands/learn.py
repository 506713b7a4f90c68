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
    # the patterns already in --out are a layer too: the same failure widens its pattern there
    out_dir = [args.out] if args.out is not None and args.out.is_dir() else []
    try:
        library = load_layers([*args.patterns, *out_dir], builtin=not args.no_builtin)
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
    for gone in got.retired:  # the maintainer named another line: theirs is no reliable cause
        where = next((p.source for p in library if p.id == gone), gone)
        print(f"repopilot: note: learned pattern {gone} ({where}) decides this log on another "
              "line: remove it, or the new pattern does not decide this log", file=sys.stderr)  # fmt: skip
    text = render(got, args.format)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    old = _file_of(library, got.widened, args.out) if got.widened else None
    if old is not None:
        old.write_text(_replaced(old, got, args.format), encoding="utf-8")
        print(f"repopilot: widened {got.id} in {old}", file=sys.stderr)
        return 0
    dest = args.out / f"{got.id}.yaml"  # JSON is YAML too: the library loads either
    dest.write_text(text, encoding="utf-8")
    print(f"repopilot: wrote {dest}", file=sys.stderr)
    return 0


def _file_of(library: list[Pattern], pattern_id: str, out: Path) -> Path | None:
    """The file under `out` that holds the learned pattern `pattern_id` (None: it is elsewhere,
    e.g. under a --patterns directory, and the widened one goes to `out` as a new file)."""
    for p in library:
        if p.id == pattern_id:
            path = Path(p.source.rsplit(":", 1)[0])
            if path.is_file() and path.resolve().parent == out.resolve():
                return path
    return None


def _replaced(path: Path, got: Learned, fmt: str) -> str:
    """The file's text with the widened pattern in place of the one with its id."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    specs = data.get("patterns") if isinstance(data, dict) else None
    new = got.data["patterns"][0]
    if not isinstance(specs, list) or len(specs) <= 1:
        return render(got, fmt)
    data["patterns"] = [new if isinstance(x, dict) and x.get("id") == got.id else x for x in specs]
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def render(got: Learned, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(got.data, indent=2, ensure_ascii=False) + "\n"
    return to_yaml(got)


def eval_learn(args: argparse.Namespace) -> int:
    """`repopilot eval gha|logchunks DIR CSV --learn`: the figures of engine/measure/learn_eval.py,
    per repository and in total."""
    from repopilot.engine.library.loader import load_library
    from repopilot.engine.measure import learn_eval as le
    from repopilot.engine.measure import learn_table as lt
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
    total = lt.total(figures)
    if args.format == "json":
        data = {"corpus": args.corpus, "same_failure": le.SAME_FAILURE,
                "total": lt.as_dict(total),
                "per_repository": [lt.as_dict(f) for f in figures]}  # fmt: skip
        print(json.dumps(data, indent=2))
        return 0
    print(lt.render(figures, total))
    return 0
