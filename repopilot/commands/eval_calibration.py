"""`repopilot eval`'s calibration section (issue 27): decided precision, decided share, top-3
recall, the expected calibration error, the cost of deciding, and the reliability table.

"Right" is what the calibrated confidence estimates (evaluate.Outcome.right): on the gha corpus
the category accepted AND the key line in Contract 1 order (evidence[0], or evidence[1] after a
test's assertion message); on LogChunks, evidence[0] inside the labelled chunk (no category is
labelled there). A log given no failure (or that could not be read) counts at confidence 0.
"""

from __future__ import annotations

from typing import Any

from repopilot.engine.measure.evaluate import Outcome, Report
from repopilot.engine.measure.reliability import (
    COST_NOTE,
    Bin,
    Scored,
    bins_json,
    reliability,
    summarise,
    table_lines,
)

RIGHT = {
    "gha": "category accepted and key line in Contract 1 order",
    "logchunks": "evidence[0] inside the labelled chunk",
}


def _scored(o: Outcome) -> Scored:
    failed = o.got not in ("no_failure", "error")
    return Scored(o.confidence if failed else 0.0, o.right, failed, o.decided, o.top3)


def calibration_summary(report: Report) -> dict[str, Any]:
    """The section's figures as JSON-ready values."""
    rows = [_scored(o) for o in report.outcomes]
    return {
        **summarise(rows).as_dict(),
        "right_means": RIGHT.get(report.corpus, RIGHT["gha"]),
        "cost_weights": COST_NOTE,
        "reliability": bins_json(reliability(rows)),
    }


def _bin(b: dict[str, Any]) -> Bin:
    return Bin(b["lo"], b["hi"], b["logs"], b["predicted"], b["observed"])


def calibration_lines(report: Report, data: dict[str, Any]) -> list[str]:
    """The section as text lines."""
    n, d = data["logs"], data["decided"]
    prec = f"{data['decided_right']}/{d} {100 * data['decided_precision']:5.1f}%"
    return [
        f"calibrated confidence (right = {data['right_means']}):",
        f"  {'decided precision':<27} {prec}",
        f"  {'decided share':<27} {d}/{n} {100 * data['decided_share']:5.1f}%",
        f"  {'top-3 recall':<27} {data['top3']}/{n} {100 * data['top3_recall']:5.1f}%",
        f"  {'ECE (10 bins)':<27} {data['ece']:.3f} (a perfectly calibrated model on {n} logs: "
        f"{data['ece_floor']:.3f})",
        f"  {'cost per failed log':<27} {data['cost']:.3f} ({data['cost_weights']})",
        "reliability (confidence vs share right):",
        *table_lines([_bin(b) for b in data["reliability"]]),
    ]
