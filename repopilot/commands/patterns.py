"""`repopilot patterns test|lint|list|stats`: check the pattern library a maintainer edits.

`test` runs every pattern's own match/no-match examples. `lint` loads each file on its own (so one
bad file does not hide the others), then reports duplicate ids across files, patterns without a
prefilter literal (confirmed on every line: slow) and regexes that take more than a few
milliseconds on adversarial 8 KiB lines (backtracking blow-ups). Both exit 1 on any problem.
`stats` counts the patterns per category and per kind of `source:` (commands/pattern_stats.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import regex

from repopilot import rx
from repopilot.commands import pattern_stats
from repopilot.commands.import_matcher import add_import_matcher, import_matcher
from repopilot.engine.library.implied import prefilter_problems
from repopilot.engine.library.loader import Pattern, check_examples, default_dir, load_file
from repopilot.errors import PatternError, UsageError
from repopilot.settings import Settings

SLOW_MS = 5.0  # a regex over one 8 KiB line should take well under a millisecond
_TIMEOUT = 0.25  # seconds; a regex still running by then is reported as pathological
_N = 8192
# Long runs of one character class, alone and glued to the pattern's own literals: where
# nested or adjacent quantifiers backtrack quadratically or worse.
_FILLERS = ("a", " ", ":", "0", "/", ".", "-", "\t", "a ", "a:", "a/", "a.", "0:", "=", "_", "(")


@dataclass(frozen=True, slots=True)
class Problem:
    where: str
    message: str
    error: bool = True

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, help_ in (
        ("test", "run every pattern's match and no_match examples"),
        ("lint", "duplicate ids, invalid categories, uncompilable, unprefiltered or slow regexes"),
        ("list", "one line per pattern: id, category, priority, source"),
        (
            "stats",
            "patterns per category and per source kind (docs-url, repo-file owner/repo:path, "
            "repo-url, learned, none)",
        ),
    ):
        p = sub.add_parser(name, help=help_, description=help_)
        p.add_argument(
            "--patterns",
            metavar="DIR",
            type=Path,
            default=None,
            help="pattern directory (default: REPOPILOT_PATTERNS or the bundled one)",
        )
        if name == "stats":
            p.add_argument("--format", choices=("text", "json"), default="text")
        if name == "lint":
            p.add_argument(
                "--slow-ms",
                type=float,
                default=SLOW_MS,
                help=f"flag a regex slower than this on one line (default {SLOW_MS})",
            )
    add_import_matcher(sub)  # issue 21


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.action == "import-matcher":
        return import_matcher(args)
    configured = settings.engine.patterns
    root = args.patterns or (Path(configured) if configured else default_dir())
    if not root.is_dir():
        raise UsageError(f"{root}: pattern directory not found")
    files = sorted(root.glob("*.yaml")) + sorted(root.glob("*.yml"))
    if not files:
        raise UsageError(f"{root}: no *.yaml pattern files")
    patterns, problems = load_all(files)
    if args.action == "list":
        for p in patterns:
            print(f"{p.id}\t{p.spec.category}\t{p.spec.priority}\t{p.source}")
        for prob in problems:
            print(str(prob), file=sys.stderr)
        return 1 if problems else 0
    if args.action == "stats":
        got = pattern_stats.stats(patterns)
        if args.format == "json":
            print(json.dumps(got.as_json(), indent=2))
        else:
            print(pattern_stats.render(got))
        for prob in problems:
            print(str(prob), file=sys.stderr)
        return 1 if problems else 0
    if args.action == "test":
        for p in patterns:
            for m in check_examples(p):
                where, _, message = m.partition(": ")
                problems.append(Problem(where, message))
        examples = sum(len(p.spec.examples.match) + len(p.spec.examples.no_match) for p in patterns)
        summary = f"{len(patterns)} patterns, {examples} examples"
    else:
        problems.extend(lint(patterns, args.slow_ms))
        routes, counts = engine_routes(patterns)
        problems.extend(routes)
        summary = f"{len(patterns)} patterns in {len(files)} files ({counts})"
    for prob in problems:
        print(str(prob))
    errors = sum(1 for p in problems if p.error)
    print(f"{summary}: {errors} error(s), {len(problems) - errors} warning(s)", file=sys.stderr)
    return 1 if errors else 0


def load_all(files: list[Path]) -> tuple[list[Pattern], list[Problem]]:
    """Load each file independently; a broken file is one problem, the rest still load."""
    patterns: list[Pattern] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            loaded = load_file(path)
        except PatternError as exc:
            where, _, reason = str(exc).partition(": ")
            problems.append(Problem(where, reason))
            continue
        for p in loaded:
            if p.id in seen:
                problems.append(
                    Problem(p.source, f"duplicate pattern id {p.id} (first at {seen[p.id]})")
                )
                continue
            seen[p.id] = p.source
            patterns.append(p)
    return patterns, problems


def lint(patterns: list[Pattern], slow_ms: float) -> list[Problem]:
    out: list[Problem] = []
    for p in patterns:
        if not p.spec.source:
            out.append(
                Problem(
                    p.source,
                    f"{p.id}: no `source:` (the tool's documentation URL or `owner/repo:path` "
                    "of its own tests that show the format)",
                )
            )
        if not p.literals and not getattr(p, "needle_re", None):
            out.append(
                Problem(
                    p.source,
                    f"{p.id}: no prefilter literal: it is confirmed on every "
                    "line (add `prefilter:` or a literal of 3+ characters)",
                )
            )
        out.extend(Problem(p.source, m) for m in prefilter_problems(p))  # issue 22
        for r in p.regexes:
            worst, text = slowest(r, p.literals, slow_ms)
            if worst is None:
                out.append(Problem(p.source, f"{p.id}: regex {r.pattern!r} times out on {text}"))
            elif worst > slow_ms:
                out.append(
                    Problem(
                        p.source,
                        f"{p.id}: regex {r.pattern!r} takes {worst:.1f} ms "
                        f"on {text} (limit {slow_ms:g} ms)",
                    )
                )
    return out


def engine_routes(patterns: list[Pattern]) -> tuple[list[Problem], str]:
    """The set engine's view (engine/match/set_engine.py): a warning for each pattern without an RE2
    form (it stays on the slower per-pattern path), and the counts for the summary."""
    from repopilot.engine.match.route_summary import summarize

    got = summarize(patterns)
    out = [
        Problem(
            p.source,
            f"{p.id}: no RE2 form, stays on the slow per-pattern path: {why}",
            error=False,
        )
        for p, why in got.slow
    ]
    if not rx.available():
        checked = f"{rx.WHY_SLOW}: the per-pattern path scans"
    elif got.checked_out is None:
        checked = "Hyperscan not installed: the per-pattern path scans"
    else:
        checked = f"{got.checked_out} left to their prefilter by the Hyperscan self-check"
    counts = (
        f"set engine: {got.exact} decided by the RE2 line set, {got.confirmed} with a wider RE2 "
        f"form that regex confirms, {len(got.slow)} on the slow path, {got.by_needle} selected "
        f"by their needle as their regex starts with a whitespace class; {checked}"
    )
    return out, counts


def adversarial(literals: tuple[str, ...]) -> list[tuple[str, str]]:
    """(description, line) pairs: fillers alone and around the pattern's own literals."""
    out = []
    for f in _FILLERS:
        run = (f * (_N // len(f)))[:_N]
        out.append((f"8 KiB of {f!r}", run))
        out.append((f"8 KiB of {f!r} then '!'", run[:-1] + "!"))
        for lit in literals[:3]:
            out.append((f"{lit!r} + 8 KiB of {f!r}", lit + run[: _N - len(lit)]))
            half = run[: (_N - len(lit)) // 2]
            out.append((f"8 KiB of {f!r} around {lit!r}", half + lit + half))
    return out


def slowest(
    r: regex.Pattern[str], literals: tuple[str, ...], slow_ms: float = SLOW_MS
) -> tuple[float | None, str]:
    """Worst time in ms over the adversarial lines, and the line; None as time on timeout.

    Time is this thread's CPU time, so other processes on a busy machine (CI running tests on
    every core) do not count; each line is still retried (up to 5 runs, best kept) while it
    looks slow, and a real blow-up is slow every time.
    """
    worst, worst_text = 0.0, ""
    for desc, line in adversarial(literals):
        best = float("inf")
        for _ in range(5):
            start = time.thread_time()
            try:
                r.search(line, timeout=_TIMEOUT)
            except TimeoutError:
                return None, desc
            best = min(best, (time.thread_time() - start) * 1000)
            if best <= slow_ms:
                break
        if best > worst:
            worst, worst_text = best, desc
    return worst, worst_text
