"""How much of what a person needs does the evidence window keep, at what size? No model needed.

    python3 benchmarks/context_quality.py [--corpus ../shared/corpus] [--budget 6000] [--blind]

- gha/: a failure's required signal is its labelled key line (`labels.csv` key_line_no); it is kept
  when that line number lies inside one of the window's line ranges.
- logchunks/: the hand-labelled chunk (chunk_start_line..chunk_end_line) that says why the build
  failed; we report the mean share of chunk lines kept and the share of logs whose chunk is kept whole.
Size: estimated tokens of the window (median, max) and the share of the log's lines left out.
`--blind` builds every window from an empty `unknown` verdict, measuring the line heuristics alone
(what the agent gets when no pattern matched); otherwise the pattern library classifies each log.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from repopilot.evidence.window import DEFAULT_BUDGET, build_window  # noqa: E402
from repopilot.logs.textnorm import display  # noqa: E402
from repopilot.pipeline import evidence_window  # noqa: E402
from repopilot.records import Verdict  # noqa: E402

_GH_COLUMNS = re.compile(rb"^[^\t\n]*\t[^\t\n]*\t(?=(?:\xef\xbb\xbf)?\d{4}-\d\d-\d\dT)")


def _inside(n: int, ranges) -> bool:
    return any(a <= n <= b for a, b in ranges)


def _kept_lines(ranges) -> int:
    return sum(b - a + 1 for a, b in ranges)


def _plain_lines(path: Path) -> list[tuple[int, str]]:
    """Contract 1 physical lines (split at LF only), display text, `gh run view` columns cut."""
    raw = path.read_bytes().split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    return [(i, display(_GH_COLUMNS.sub(b"", b, count=1))) for i, b in enumerate(raw, 1)]


def _window(path: Path, classify, budget: int):
    """(total lines, window) for the log's first failed job (corpus logs hold one job each)."""
    total = len(_plain_lines(path))
    if classify is None:
        lines = _plain_lines(path)
        verdict = Verdict(source=str(path), category="unknown")
        return total, build_window(lines, verdict, budget=budget, source=str(path))
    for cj in classify(str(path)):
        if cj.verdict.failed:
            return total, evidence_window(cj, budget)
    # The patterns saw no failure: the agent would not run; measure the blind window instead.
    return _window(path, None, budget)


def run_gha(root: Path, classify, budget: int) -> dict:
    rows = list(csv.DictReader(open(root / "labels.csv", newline="", encoding="utf-8")))
    hits, tokens, cut, misses = 0, [], [], []
    for row in rows:
        total, win = _window(root / "logs" / f"{row['id']}.log", classify, budget)
        key = int(row["key_line_no"])
        ok = _inside(key, win.line_ranges)
        hits += ok
        if not ok:
            misses.append(row["id"])
        tokens.append(win.tokens)
        cut.append(1 - _kept_lines(win.line_ranges) / max(total, 1))
    return {
        "logs": len(rows),
        "key_line_kept": round(hits / len(rows), 4),
        "tokens_median": statistics.median(tokens),
        "tokens_max": max(tokens),
        "log_cut_median": round(statistics.median(cut), 4),
        "misses": misses,
    }


def run_logchunks(root: Path, classify, budget: int) -> dict:
    csv.field_size_limit(1 << 30)
    rows = [
        r
        for r in csv.DictReader(open(root / "chunks.csv", newline="", encoding="utf-8"))
        if r["chunk_start_line"] and r["chunk_end_line"]
    ]
    shares, whole, any_, tokens, cut = [], 0, 0, [], []
    for row in rows:
        total, win = _window(root / "logs" / row["log"], classify, budget)
        lo, hi = int(row["chunk_start_line"]), int(row["chunk_end_line"])
        kept = sum(_inside(n, win.line_ranges) for n in range(lo, hi + 1))
        share = kept / (hi - lo + 1)
        shares.append(share)
        whole += share == 1.0
        any_ += kept > 0
        tokens.append(win.tokens)
        cut.append(1 - _kept_lines(win.line_ranges) / max(total, 1))
    return {
        "logs": len(rows),
        "chunk_lines_kept_mean": round(statistics.mean(shares), 4),
        "chunk_kept_whole": round(whole / len(rows), 4),
        "chunk_touched": round(any_ / len(rows), 4),
        "tokens_median": statistics.median(tokens),
        "tokens_max": max(tokens),
        "log_cut_median": round(statistics.median(cut), 4),
    }


def _classifier(patterns: str | None, blind: bool):
    """None (blind), or path -> classified jobs through the pipeline's own reader."""
    if blind:
        return None
    from repopilot.pipeline import classified_jobs, load_classifier

    classifier = load_classifier(patterns)
    return lambda path: classified_jobs(path, classifier)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared/corpus"))
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--patterns", default=None)
    ap.add_argument("--blind", action="store_true", help="ignore the patterns: empty verdicts")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"context_quality: no corpus at {corpus}", file=sys.stderr)
        return 2
    classify = _classifier(args.patterns, args.blind)
    t0 = time.monotonic()
    report = {
        "budget": args.budget,
        "mode": "blind" if classify is None else "classified",
        "gha": run_gha(corpus / "gha", classify, args.budget),
        "logchunks": run_logchunks(corpus / "logchunks", classify, args.budget),
        "seconds": round(time.monotonic() - t0, 1),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name in ("gha", "logchunks"):
            print(name, {k: v for k, v in report[name].items() if k != "misses"})
        print("gha misses:", report["gha"]["misses"])
        print("mode", report["mode"], "budget", report["budget"], "seconds", report["seconds"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
