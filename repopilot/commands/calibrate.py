"""`repopilot calibrate DIR_GHA LABELS DIR_LOGCHUNKS CHUNKS [--write PATH]`: refit the calibrated
confidence (engine/verdict/confidence.py) by repository-disjoint folds and print, per fold, the
decided precision, decided share, top-3 recall, ECE and false positives on the passing logs, then
the pooled reliability table and the per-shape figures. `--write` writes the data file
(default: print only); `--no-leave-out` fits without the leave-winning-pattern-out rows;
`--partitions N` scores the same fit on N further random repository-disjoint partitions and
prints their spread (one partition's figures depend on which projects fell together).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from repopilot.engine.measure.calibrate import (
    FOLDS,
    L2,
    PARTITIONS,
    SELECTED,
    Calibration,
    Options,
    calibrate,
    per_shape,
    spread,
)
from repopilot.engine.measure.calibration_rows import build
from repopilot.engine.measure.reliability import (
    COST_NOTE,
    Bin,
    bins_json,
    decide,
    reliability,
    summarise,
    table_lines,
)
from repopilot.engine.verdict.calibration_features import Features
from repopilot.engine.verdict.confidence import DATA
from repopilot.errors import EvalError, PatternError, UsageError
from repopilot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "gha", type=Path, metavar="DIR_GHA", help="labelled job logs (../shared/corpus/gha)"
    )
    parser.add_argument("labels", type=Path, metavar="LABELS.csv", help="their labels")
    parser.add_argument(
        "logchunks",
        type=Path,
        metavar="DIR_LOGCHUNKS",
        help="LogChunks logs (../shared/corpus/logchunks)",
    )
    parser.add_argument("chunks", type=Path, metavar="CHUNKS.csv", help="their labelled chunks")
    parser.add_argument(
        "--write",
        type=Path,
        nargs="?",
        const=DATA,
        default=None,
        metavar="PATH",
        help=f"write the fitted model (default path: the bundled {DATA.name})",
    )
    parser.add_argument(
        "--patterns",
        type=Path,
        default=None,
        metavar="DIR",
        help="the pattern library (default: the built-in one)",
    )
    parser.add_argument(
        "--folds", type=int, default=FOLDS, help=f"repository-disjoint folds ({FOLDS})"
    )
    parser.add_argument("--l2", type=float, default=L2, help=f"the fit's L2 penalty ({L2})")
    parser.add_argument(
        "--partitions",
        type=int,
        default=PARTITIONS,
        help=f"further random repository-disjoint partitions to score ({PARTITIONS}; 0: none)",
    )
    parser.add_argument(
        "--no-leave-out",
        action="store_true",
        help="no leave-winning-pattern-out rows (fit on the real rows only)",
    )
    parser.add_argument(
        "--features",
        default=",".join(SELECTED),
        help="comma-separated feature names (default: the selected ones; 'all' for every one)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _features(text: str) -> tuple[str, ...]:
    names = Features.names()
    if text == "all":
        return names
    got = tuple(n.strip() for n in text.split(",") if n.strip())
    bad = [n for n in got if n not in names]
    if bad or not got:
        raise UsageError(f"--features: unknown {', '.join(bad) or '(none)'}; known: {names}")
    return got


def run(args: argparse.Namespace, settings: Settings) -> int:
    for d in (args.gha, args.logchunks):
        if not d.is_dir():
            raise UsageError(f"{d}: not a directory")
    if args.folds < 2:
        raise UsageError("--folds: at least 2")
    if args.partitions < 0:
        raise UsageError(f"--partitions {args.partitions}: a count, 0 or more")
    if not args.l2 >= 0 or args.l2 == float("inf"):  # nan too
        raise UsageError(f"--l2 {args.l2}: a penalty, a number >= 0")
    if args.write is not None and not args.write.parent.is_dir():  # said before minutes of fit
        raise UsageError(f"--write {args.write}: {args.write.parent} is not a directory")
    leave_out = not args.no_leave_out
    opts = Options(
        folds=args.folds, l2=args.l2, augment=leave_out, features=_features(args.features)
    )
    from repopilot.engine.library.loader import load_library

    engine = settings.engine
    chosen = args.patterns or (Path(engine.patterns) if engine.patterns else None)
    note = (lambda s: print(s, file=sys.stderr)) if args.format == "text" else (lambda s: None)
    try:
        lib = load_library(chosen, engine.cache_dir)
        rows = build(
            lib,
            (args.gha, args.labels),
            (args.logchunks, args.chunks),
            engine.scan_engine,
            engine.cache_dir,
            leave_out,
            note,
        )
    except (EvalError, PatternError) as exc:
        raise UsageError(str(exc)) from None
    passing = [(o.repository, o.got != "no_failure") for o in rows.negatives]
    cal = calibrate(rows.rows, passing, opts, note)
    data = summary(cal)
    data["partitions"] = [x.as_dict() for x in spread(rows.rows, opts, args.partitions, note)]
    if args.write is not None:
        about = {
            "fitted_by": "repopilot calibrate",
            "rows": len(rows.rows),
            "left_out_rows": sum(1 for r in rows.rows if r.left_out is not None),
            "folds": opts.folds,
            "l2": opts.l2,
            "repo_fit": opts.repo_fit,
            "repo_threshold": opts.repo_threshold,
            "precision": opts.precision,
            "pooled": data["pooled"],
            "partitions": _pooled(data["partitions"]),
        }
        try:
            args.write.write_text(cal.model.to_json(about), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--write {args.write}: {exc.strerror or exc}") from None
        data["written"] = str(args.write)
    bins = reliability([s for _, s in cal.pooled])
    print(json.dumps(data, indent=2) if args.format == "json" else "\n".join(render(data, bins)))
    return 0


def summary(cal: Calibration) -> dict[str, Any]:
    pooled = [s for _, s in cal.pooled]
    return {
        "threshold": round(cal.model.threshold, 4),
        "intercept": round(cal.model.intercept, 4),
        "weights": {
            n: round(w, 4) for n, w in zip(cal.model.features, cal.model.weights, strict=True)
        },
        "folds": [
            {
                "fold": f.index + 1,
                "repositories": len(f.repositories),
                "threshold": round(f.threshold, 4),
                **f.summary.as_dict(),
                "passing_logs": f.passing,
                "false_positives": f.false_positives,
                "left_out": f.left_out.as_dict(),
            }
            for f in cal.folds
        ],
        "pooled": summarise(pooled).as_dict(),
        # as before the calibration: every pattern verdict not marked ambiguous decided
        "uncalibrated": summarise(decide(pooled, 0.0)).as_dict(),
        "pooled_left_out": summarise([s for _, s in cal.pooled_left_out]).as_dict(),
        "reliability": bins_json(reliability(pooled)),
        "per_shape": {k: v.as_dict() for k, v in per_shape(cal.pooled).items()},
        "cost": COST_NOTE,
    }


def _row(name: str, s: dict[str, Any], width: int = 12) -> str:
    return (
        f"  {name:<{width}} {s['logs']:>5} {100 * s['decided_precision']:9.1f}% "
        f"{100 * s['decided_share']:8.1f}% {100 * s['top3_recall']:6.1f}% {s['ece']:6.3f} "
        f"{s['ece_floor']:6.3f} {s['cost']:5.2f}"
    )


def _head(key: str, width: int = 12) -> str:
    return (
        f"  {key:<{width}} {'logs':>5} {'precision':>10} {'share':>9} {'top3':>7} {'ECE':>6} "
        f"{'floor':>6} cost"
    )


def _pooled(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The further partitions' figures summed: decided precision and share over all of them."""
    decided = sum(p["decided"] for p in parts)
    right = sum(p["decided_right"] for p in parts)
    logs = sum(p["logs"] for p in parts)
    return {
        "partitions": len(parts),
        "decided_precision": round(right / decided, 4) if decided else 0.0,
        "decided_share": round(decided / logs, 4) if logs else 0.0,
    }


def _spread(parts: list[dict[str, Any]]) -> list[str]:
    """The pooled figures of the further partitions: all of them together, then the range."""
    together = _pooled(parts)
    precision = [100 * p["decided_precision"] for p in parts if p["decided"]]
    share = [100 * p["decided_share"] for p in parts]
    ece = [p["ece"] for p in parts]
    return [
        f"  {len(parts)} further partitions (repositories dealt in a seeded random order), "
        f"pooled: decided precision {100 * together['decided_precision']:.1f}% at "
        f"{100 * together['decided_share']:.1f}% decided",
        f"    per partition: precision {min(precision, default=0):.1f}..."
        f"{max(precision, default=0):.1f}%, share {min(share):.1f}...{max(share):.1f}%, "
        f"ECE {min(ece):.3f}...{max(ece):.3f}",
    ]


def render(data: dict[str, Any], bins: list[Bin]) -> list[str]:
    lines = [
        f"threshold {data['threshold']:.3f} (decided precision >= 95% on the pooled "
        "out-of-fold predictions); figures per repository-disjoint fold, each scored by a "
        "model and a threshold fitted on the other folds only:",
        _head("fold") + "  passing/FP",
    ]
    for f in data["folds"]:
        row = _row(f"{f['fold']} ({f['repositories']} repos)", f, 16 - 4)
        lines.append(f"{row}  {f['passing_logs']}/{f['false_positives']}")
    lines.append(_row("pooled", data["pooled"]))
    lines.append(_row("uncalibrated", data["uncalibrated"]) + "  (every pattern verdict decided)")
    lines.append(_row("left out", data["pooled_left_out"]) + "  (leave-winning-pattern-out)")
    if data.get("partitions"):
        lines += _spread(data["partitions"])
    lines.append(f"cost: {data['cost']}")
    lines.append(
        "floor: the median ECE of a perfectly calibrated model on as many rows (10 bins leave "
        "an ECE above 0 on a few hundred rows even when every confidence is exact)"
    )
    lines.append("reliability (pooled out-of-fold, 10 bins):")
    lines += table_lines(bins)
    width = max([len(k) for k in data["per_shape"]] + [12])
    lines.append("per shape (corpus: log format / cause line, pooled out-of-fold):")
    lines.append(_head("shape", width))
    lines += [_row(k, v, width) for k, v in data["per_shape"].items()]
    lines.append("weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in data["weights"].items()))
    lines.append(f"intercept {data['intercept']:+.3f}")
    if "written" in data:
        lines.append(f"written: {data['written']}")
    return lines
