"""Does the base log count? Failed/green pairs of the same job, classified without and with the
green log as the base log (issue 27 item 4). No model, no network.

    python3 benchmarks/bench_base_log.py [--corpus ../shared/corpus/gha] [--json]

Three sets, each labelled in the output:
- `pairs`: ../shared/corpus/gha/pairs.csv, 12 failed logs with the passing log of the same job
  (the run before or after).
- `same-job`: every other labelled failed log of ../shared whose project (the workspace path,
  engine/measure/corpus_repo.py) AND job (its CiDiff folder, `data/breakages_dump/<job>/runN/`)
  have a passing log in negatives/, paired with the passing run nearest in run number. Further
  apart in time than `pairs`, so the green log differs more: an honest, harder set.
- `synthetic`: tests/fixtures/base_log_pairs/ (each failing log is its green log plus an injected
  failure, written from the tools' documented output; pairs.csv holds the key lines). These are
  built to show where a green log helps; they are not real logs.

The base log is read as the Action reads the last green run's log (the API says it passed:
`baseline.from_jobs`); a `cli!` mark says `classify --base-log` would have read it as failed (and
then demoted nothing). Per pair and per set: category right, key line (evidence[0] is the labelled
line), Contract 1 key line (a test's message first, the test's line second), top-3 (the labelled
line in evidence[:3]), decided (decided_by pattern) and decided right (decided, category and
Contract 1 key line right).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from repopilot.engine.classify import Classifier  # noqa: E402
from repopilot.engine.measure.corpus_repo import project_of  # noqa: E402
from repopilot.engine.measure.evaluate import Outcome, case_outcome  # noqa: E402
from repopilot.engine.measure.labels import GhaCase, gha_cases  # noqa: E402
from repopilot.engine.verdict.baseline import base_from_path, from_jobs  # noqa: E402
from repopilot.logs.reader import open_logs  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SYNTHETIC = ROOT / "tests" / "fixtures" / "base_log_pairs"
_RUN = re.compile(r"^(?P<job>data/breakages_dump/[^/]+)/run(?P<n>\d+)/")


@dataclass(frozen=True)
class Pair:
    set: str
    case: GhaCase
    passing: Path


@dataclass(frozen=True)
class Row:
    pair: Pair
    without: Outcome
    with_base: Outcome
    cli_green: bool


def shared_pairs(gha: Path) -> list[Pair]:
    cases = {c.id: c for c in gha_cases(gha, gha / "labels.csv")}
    out = []
    with (gha / "pairs.csv").open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            out.append(
                Pair("pairs", cases[r["failed_id"]], gha / "negatives" / f"{r['passing_id']}.log")
            )
    return out


def _jobs(rows: list[dict[str, str]], folder: Path) -> dict[tuple[str, str], list[tuple[int, str]]]:
    """(project, job) -> [(run number, id)] for the rows whose path names a CiDiff job folder."""
    out: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for r in rows:
        m = _RUN.match(r.get("path", ""))
        if m is None:
            continue
        project = project_of(folder / f"{r['id']}.log", r.get("repo", ""))
        out.setdefault((project, m["job"]), []).append((int(m["n"]), r["id"]))
    return out


def same_job_pairs(gha: Path, taken: set[str]) -> list[Pair]:
    with (gha / "labels.csv").open(encoding="utf-8") as fh:
        labels = list(csv.DictReader(fh))
    with (gha / "negatives.csv").open(encoding="utf-8") as fh:
        negatives = list(csv.DictReader(fh))
    cases = {c.id: c for c in gha_cases(gha, gha / "labels.csv")}
    failed = _jobs(labels, gha / "logs")
    passing = _jobs(negatives, gha / "negatives")
    out = []
    for key, runs in sorted(failed.items()):
        green = passing.get(key)
        if not green:
            continue
        for n, ident in sorted(runs):
            if ident in taken:
                continue
            _, nearest = min(green, key=lambda g: (abs(g[0] - n), g[0]))
            out.append(Pair("same-job", cases[ident], gha / "negatives" / f"{nearest}.log"))
    return out


def synthetic_pairs() -> list[Pair]:
    out = []
    with (SYNTHETIC / "pairs.csv").open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            path = SYNTHETIC / r["failed"]
            case = GhaCase(
                id=path.name.removesuffix(".fail.log"),
                path=path,
                ecosystem="synthetic",
                category=r["category"],  # type: ignore[arg-type]
                accepted=frozenset({r["category"]}),
                key_line=int(r["key_line"]),
                repo="synthetic",
            )
            out.append(Pair("synthetic", case, SYNTHETIC / r["passing"]))
    return out


def run(engine: Classifier, pair: Pair) -> Row:
    engine.baseline = None
    without = case_outcome(engine.classify_path, pair.case)
    cli_green = base_from_path(engine, str(pair.passing)) is not None
    engine.baseline = from_jobs(str(pair.passing), open_logs(str(pair.passing)))
    try:
        with_base = case_outcome(engine.classify_path, pair.case)
    finally:
        engine.baseline = None
    return Row(pair, without, with_base, cli_green)


def _right(o: Outcome) -> bool:
    return o.decided_by == "pattern" and o.category_ok and o.key_ok_contract


FIGURES = (
    ("category", lambda o: o.category_ok),
    ("key line", lambda o: o.key_ok),
    ("Contract 1", lambda o: o.key_ok_contract),
    ("top-3", lambda o: o.key_line is not None and o.key_line in o.evidence[:3]),
    ("decided", lambda o: o.decided_by == "pattern"),
    ("decided right", _right),
)


def totals(rows: list[Row], with_base: bool) -> dict[str, object]:
    outs = [r.with_base if with_base else r.without for r in rows]
    got = {name: sum(1 for o in outs if f(o)) for name, f in FIGURES}
    n = len(outs)
    decided = got["decided"]
    return {
        "pairs": n,
        **{name: f"{v}/{n}" for name, v in got.items()},
        "decided precision": f"{got['decided right']}/{decided}" if decided else "-",
    }


def _mark(o: Outcome) -> str:
    first = o.evidence[0] if o.evidence else "-"
    flags = "".join(c if f(o) else "." for c, (_, f) in zip("CK1TDR", FIGURES, strict=True))
    return f"{o.got:<22} ev0 {first!s:>6} {flags}"


def render(rows: list[Row]) -> str:
    out = [
        "flags: C category, K key line = evidence[0], 1 Contract 1, T top-3, D decided, R decided right"
    ]
    for name in ("pairs", "same-job", "synthetic"):
        part = [r for r in rows if r.pair.set == name]
        if not part:
            continue
        out.append(f"\n== {name} ({len(part)} pairs)")
        out.append(f"{'failed log':<34} {'key':>6}  {'without base log':<40} with base log")
        for r in part:
            cli = "" if r.cli_green else " cli!"
            out.append(
                f"{r.pair.case.id:<34} {r.pair.case.key_line!s:>6}  {_mark(r.without):<40} "
                f"{_mark(r.with_base)}{cli}"
            )
        for label, side in (("without", False), ("with", True)):
            t = totals(part, side)
            out.append(f"  total {label:<8} " + ", ".join(f"{k} {v}" for k, v in t.items()))
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "gha")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pairs: list[Pair] = []
    if (args.corpus / "pairs.csv").is_file():
        pairs = shared_pairs(args.corpus)
        pairs += same_job_pairs(args.corpus, {p.case.id for p in pairs})
    else:
        print(f"{args.corpus}: no pairs.csv; only the synthetic pairs", file=sys.stderr)
    pairs += synthetic_pairs()
    engine = Classifier()
    rows = [run(engine, p) for p in pairs]
    if args.json:
        data = {
            name: {
                "without": totals([r for r in rows if r.pair.set == name], False),
                "with": totals([r for r in rows if r.pair.set == name], True),
            }
            for name in ("pairs", "same-job", "synthetic")
        }
        print(json.dumps(data, indent=2))
    else:
        print(render(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
