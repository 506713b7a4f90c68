"""How far a confidence can be trusted: the reliability table, the expected calibration error,
the threshold for a precision, and what deciding costs (issue 27).

A scored row is one failed verdict: its confidence, whether it was right (category and cause line;
evaluate.Outcome.right), whether it may be decided (a pattern's verdict, not marked ambiguous)
and whether it was. Decided precision is the share of decided rows that are right; the decided
share counts over every failed row. The cost counts a wrong decided verdict as three honest
guesses: wrong decided = 3, not decided = 1, right decided = 0, per failed log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BINS = 10
PRECISION = 0.95
COST_WRONG, COST_GUESS, COST_RIGHT = 3, 1, 0
COST_NOTE = "wrong decided = 3, guess = 1, right decided = 0, per failed log"
FLOOR_SAMPLES = 200  # draws behind ece_floor's median


@dataclass(frozen=True, slots=True)
class Scored:
    p: float
    right: bool
    decidable: bool = True  # a pattern's verdict not marked ambiguous
    decided: bool = False
    top3: bool = False


@dataclass(frozen=True, slots=True)
class Bin:
    lo: float
    hi: float
    count: int
    predicted: float  # mean confidence in the bin
    observed: float  # share right in the bin


@dataclass(frozen=True, slots=True)
class Summary:
    rows: int
    decided: int
    decided_right: int
    right: int
    top3: int
    ece: float
    cost: float
    ece_floor: float = 0.0  # the ECE a perfectly calibrated model shows on as many rows

    @property
    def precision(self) -> float:
        return self.decided_right / self.decided if self.decided else 0.0

    @property
    def share(self) -> float:
        return self.decided / self.rows if self.rows else 0.0

    @property
    def top3_recall(self) -> float:
        return self.top3 / self.rows if self.rows else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "logs": self.rows,
            "decided_precision": round(self.precision, 4),
            "decided_share": round(self.share, 4),
            "decided": self.decided,
            "decided_right": self.decided_right,
            "right": self.right,
            "top3": self.top3,
            "top3_recall": round(self.top3_recall, 4),
            "ece": round(self.ece, 4),
            "ece_floor": round(self.ece_floor, 4),
            "cost": round(self.cost, 4),
        }


def reliability(rows: Iterable[Scored], bins: int = BINS) -> list[Bin]:
    """Equal-width bins of the confidence: count, mean predicted, share observed right."""
    got: list[list[Scored]] = [[] for _ in range(bins)]
    for r in rows:
        got[min(bins - 1, max(0, int(r.p * bins)))].append(r)
    out = []
    for i, b in enumerate(got):
        n = len(b)
        out.append(
            Bin(
                i / bins,
                (i + 1) / bins,
                n,
                sum(r.p for r in b) / n if n else 0.0,
                sum(1 for r in b if r.right) / n if n else 0.0,
            )
        )
    return out


def ece(rows: Sequence[Scored], bins: int = BINS) -> float:
    """Expected calibration error: the bins' |predicted - observed|, weighted by their count."""
    if not rows:
        return 0.0
    return sum(b.count * abs(b.predicted - b.observed) for b in reliability(rows, bins)) / len(rows)


def ece_floor(rows: Sequence[Scored], bins: int = BINS, samples: int = FLOOR_SAMPLES) -> float:
    """The median ECE of a perfectly calibrated model on rows of these confidences (each drawn
    right with probability p; a fixed seed, so the same figure every run). Binning a few hundred
    rows leaves an ECE well above 0 even when every p is exact: an ECE near this floor is as
    calibrated as this many rows can show."""
    if not rows:
        return 0.0
    draw = random.Random(0)
    got = sorted(
        ece([Scored(r.p, draw.random() < r.p) for r in rows], bins) for _ in range(samples)
    )
    return got[len(got) // 2]


def threshold_for(
    rows: Iterable[Scored], precision: float = PRECISION, weights: Iterable[float] | None = None
) -> float:
    """The lowest confidence t such that the decidable rows at or above t are right at least
    `precision` of the time (rows of equal confidence go together; each row counts its
    `weights` entry, 1 when None); 1.0 when none is."""
    paired = zip(rows, weights, strict=True) if weights is not None else ((r, 1.0) for r in rows)
    ranked = sorted(((r, w) for r, w in paired if r.decidable), key=lambda rw: -rw[0].p)
    best, right, n, i = 1.0, 0.0, 0.0, 0
    while i < len(ranked):
        p = ranked[i][0].p
        while i < len(ranked) and ranked[i][0].p == p:
            right += ranked[i][1] * ranked[i][0].right
            n += ranked[i][1]
            i += 1
        if n > 0 and right / n >= precision:
            best = p
    return best


def decide(rows: Iterable[Scored], threshold: float) -> list[Scored]:
    """The rows as decided at `threshold`."""
    return [
        Scored(r.p, r.right, r.decidable, r.decidable and r.p >= threshold, r.top3) for r in rows
    ]


def summarise(rows: Sequence[Scored]) -> Summary:
    decided = [r for r in rows if r.decided]
    right = sum(1 for r in decided if r.right)
    wrong = len(decided) - right
    guesses = len(rows) - len(decided)
    cost = COST_WRONG * wrong + COST_GUESS * guesses + COST_RIGHT * right
    return Summary(
        rows=len(rows),
        decided=len(decided),
        decided_right=right,
        right=sum(1 for r in rows if r.right),
        top3=sum(1 for r in rows if r.top3),
        ece=ece(rows),
        cost=cost / len(rows) if rows else 0.0,
        ece_floor=ece_floor(rows),
    )


def table_lines(bins: Sequence[Bin]) -> list[str]:
    """The reliability table as text lines."""
    lines = [f"  {'confidence':<11} {'logs':>5} {'predicted':>10} {'observed':>9}"]
    for b in bins:
        if b.count:
            lines.append(
                f"  {b.lo:.1f}-{b.hi:.1f}     {b.count:>5} {100 * b.predicted:9.1f}% "
                f"{100 * b.observed:8.1f}%"
            )
    return lines


def bins_json(bins: Sequence[Bin]) -> list[dict[str, float | int]]:
    return [
        {
            "lo": b.lo,
            "hi": b.hi,
            "logs": b.count,
            "predicted": round(b.predicted, 4),
            "observed": round(b.observed, 4),
        }
        for b in bins
    ]
