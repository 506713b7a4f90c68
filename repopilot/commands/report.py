"""`repopilot report [--store FILE] [--traces DIR] [--weeks N] [--until DATE] [--top N]
[--format text|markdown|json] [--price-in USD --price-out USD] [--summary]` (issue 28).

What the seen-before store (`seen.json` from the `repopilot-memory` branch) and the run traces say
about a repository's failures: the top signatures, who decided them (patterns, learned patterns,
the LLM, nobody), failures and LLM tokens (and cost, with prices) per ISO week. `--summary`
appends the Markdown form to the job summary (GITHUB_STEP_SUMMARY, from Settings).

Exit 0 with a report (an empty store gives a quiet "no failures recorded" one); 2 when the store
or the trace directory cannot be used, one line naming the file. A trace file that cannot be
read among others is skipped with one warning line on stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import UTC, date, datetime
from pathlib import Path

from repopilot.errors import UsageError
from repopilot.report.inputs import Traces, load_store, load_traces
from repopilot.report.markdown import render_markdown, runs_home
from repopilot.report.records import Prices
from repopilot.report.tally import build
from repopilot.report.text import render_text
from repopilot.run_records import SeenRecord
from repopilot.settings import Settings

DEFAULT_STORE = "seen.json"
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
MAX_WEEKS = 1040  # twenty years: far more than the memory keeps, and a chart still drawn


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--store",
        metavar="FILE",
        default=None,
        help=f"the seen-before store (default {DEFAULT_STORE}; get it with "
        "`git fetch origin repopilot-memory && "
        "git show origin/repopilot-memory:seen.json > seen.json`)",
    )
    p.add_argument(
        "--repo",
        metavar="OWNER/NAME",
        default=None,
        help="read the store through the GitHub API (GITHUB_TOKEN, GITHUB_API_URL) instead of "
        "a file: every record it keeps (the newest 1000)",
    )
    p.add_argument(
        "--traces",
        metavar="DIR",
        default=None,
        help="run traces (.runs/, or the Action's downloaded trace artifacts): LLM tokens per "
        "week from them instead of the store's totals",
    )
    p.add_argument("--weeks", type=_positive, default=8, metavar="N", help="ISO weeks (8)")
    p.add_argument(
        "--until",
        type=_day,
        default=None,
        metavar="YYYY-MM-DD",
        help="the report's last week is this day's (default: today, UTC)",
    )
    p.add_argument("--top", type=_positive, default=10, metavar="N", help="signatures (10)")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--price-in", type=_price, default=None, metavar="USD_PER_MTOK")
    p.add_argument("--price-out", type=_price, default=None, metavar="USD_PER_MTOK")
    p.add_argument(
        "--summary",
        action="store_true",
        help="also append the Markdown report to the job summary (GITHUB_STEP_SUMMARY)",
    )


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {value!r}")
    return int(value)


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a date YYYY-MM-DD, not {value!r}") from None


def _price(value: str) -> float:
    try:
        price = float(value)
    except ValueError:
        price = -1.0
    if not price >= 0 or price == float("inf"):
        raise argparse.ArgumentTypeError(f"must be USD per million tokens (>= 0), not {value!r}")
    return price


def _prices(args: argparse.Namespace) -> Prices | None:
    if (args.price_in is None) != (args.price_out is None):
        raise UsageError("give both --price-in and --price-out (USD per million tokens)")
    return None if args.price_in is None else Prices(args.price_in, args.price_out)


def _records(
    args: argparse.Namespace, traces: Traces | None, settings: Settings
) -> list[SeenRecord]:
    """The store's records; without `--store`, a missing default store is fine when the traces
    are usable (a tokens-only report)."""
    if args.repo is not None:
        if args.store is not None:
            raise UsageError("give --store FILE or --repo OWNER/NAME, not both")
        if not _REPO.fullmatch(args.repo):
            raise UsageError(f"--repo: expected OWNER/NAME, not {args.repo!r}")
        from repopilot.github.memory_read import read_memory  # PyGithub only here

        return list(read_memory(settings.github, args.repo))
    path = args.store or DEFAULT_STORE
    if args.store is None and traces is not None and traces.traces and not Path(path).exists():
        print(f"repopilot: warning: no {path}: tokens from the traces only", file=sys.stderr)
        return []
    return list(load_store(path).records)


def run(args: argparse.Namespace, settings: Settings) -> int:
    prices = _prices(args)
    if args.summary and not settings.github.step_summary:
        raise UsageError(
            "--summary: GITHUB_STEP_SUMMARY is not set (it is, in a GitHub Actions job)"
        )
    traces = None
    if args.traces is not None:
        traces = load_traces(args.traces)
        for line in traces.warnings:
            print(f"repopilot: warning: {line}", file=sys.stderr)
        if not traces.traces:
            print(f"repopilot: warning: {args.traces}: no usable trace", file=sys.stderr)
    if args.weeks > MAX_WEEKS:
        raise UsageError(f"--weeks {args.weeks}: at most {MAX_WEEKS}")
    records = _records(args, traces, settings)
    until = args.until or datetime.now(UTC).date()
    try:
        report = build(
            records,
            traces.traces if traces is not None else (),
            until=until,
            weeks=args.weeks,
            top=args.top,
            prices=prices,
        )
    except OverflowError:
        raise UsageError(
            f"--until {until} --weeks {args.weeks}: the window leaves the calendar (years 1-9999)"
        ) from None
    # --repo names the repository: only its run pages are linked (the store is untrusted text)
    home = runs_home(settings.github.server_url, args.repo) if args.repo else None
    if args.format == "json":
        print(json.dumps(report.contract(), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        print(render_markdown(report, home), end="")
    else:
        print(render_text(report))
    if args.summary and settings.github.step_summary:
        path = settings.github.step_summary
        try:
            with open(path, "a", encoding="utf-8") as out:
                out.write(render_markdown(report, home).rstrip("\n") + "\n\n")
        except OSError as exc:
            raise UsageError(f"{path}: cannot append the job summary ({exc.strerror})") from None
    return 0
