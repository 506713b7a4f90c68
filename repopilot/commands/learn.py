"""`repopilot learn PATH --line N [--category C] [--title T] [--hint H] [--base-log PATH ...]
[--id ID] [--out DIR] [--format yaml|json] [--patterns DIR ...] [--no-builtin]` (docs/CONTRACTS.md
Contract 6): one pattern that makes line N of PATH the evidence of its verdict.

Without `--out` it prints the pattern file; with it, writes `DIR/<id>.yaml`, or, when DIR
already holds a pattern with that id (the same failure widened), rewrites that one in its file:
one pattern per id (engine/learn/placement.py). A learned pattern of DIR that the new example
contradicts (it decides that log on another line) is removed from DIR. When no safe pattern can
be made it says why on stderr and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from repopilot.commands.patterns import lint
from repopilot.engine.learn.learner import Learned, LearnRefused, LearnRequest, learn, to_yaml
from repopilot.engine.learn.placement import place
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
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write DIR/<id>.yaml (a pattern of DIR with that id is replaced where it stands)",
    )
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


def _holds_patterns(d: Path) -> bool:
    return d.is_dir() and any(f.suffix in (".yaml", ".yml") for f in d.iterdir() if f.is_file())


def run(args: argparse.Namespace, settings: object = None) -> int:
    # the patterns already in --out are a layer too: the same failure widens its pattern there
    # (an empty or new one holds none yet: nothing to load)
    out_dir = [args.out] if args.out is not None and _holds_patterns(args.out) else []
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
    text = render(got, args.format)
    taken: set[str] = set()
    if args.out is None:
        sys.stdout.write(text)
    else:
        taken = _write(args.out, got, text)
    for gone in got.retired:  # the maintainer named another line: theirs is no reliable cause
        if gone not in taken:  # not under --out (a --patterns directory): the user's to remove
            print(f"repopilot: note: learned pattern {gone} ({_where(library, gone)}) decides "
                  "this log on another line: remove it, or the new pattern does not decide this "
                  "log", file=sys.stderr)  # fmt: skip
    return 0


def _write(out: Path, got: Learned, text: str) -> set[str]:
    """`got` placed in `out` (engine/learn/placement.py), each change said on stderr; the ids of
    the patterns taken out of it."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        placed = place(_files(out), text, got.id, got.retired)
        for name, new in placed.changes.items():
            if new is None:
                (out / name).unlink()
            else:
                (out / name).write_text(new, encoding="utf-8")
    except OSError as exc:  # a file in the way, no permission, a full disk
        raise UsageError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None
    said = f"widened {got.id} in" if got.widened else "wrote"
    print(f"repopilot: {said} {out / placed.target}", file=sys.stderr)
    for pid, name in placed.removed:
        why = "a second pattern with its id" if pid == got.id else (
            "it decides this log on another line than the one you named")  # fmt: skip
        print(f"repopilot: removed learned pattern {pid} from {out / name}: {why}",
              file=sys.stderr)  # fmt: skip
    return {pid for pid, _ in placed.removed}


def _files(out: Path) -> dict[str, str]:
    """The pattern files directly in `out` (what the library loads from it), by name."""
    paths = sorted(out.glob("*.yaml")) + sorted(out.glob("*.yml"))
    found: dict[str, str] = {}
    for path in paths:
        try:
            found[path.name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path}: cannot read: {exc}") from None
    return found


def _where(library: list[Pattern], pattern_id: str) -> str:
    return next((p.source for p in library if p.id == pattern_id), pattern_id)


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
