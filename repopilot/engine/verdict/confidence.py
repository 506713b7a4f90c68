"""The calibrated confidence of a failed verdict, and "decided means sure" (issue 27).

A logistic model over the named features of engine/verdict/calibration_features.py estimates
P(the category and evidence[0] are right). Its weights, intercept and decision threshold are data,
`calibration.json` beside this module, refitted by `repopilot calibrate` (engine/measure/
calibrate.py) on repository-disjoint folds of the labelled corpora; the threshold is the lowest
that kept 95% of the decided verdicts right on the held-out folds.

Every failed verdict passes through `Model.judge`: its `confidence` becomes P. A pattern's
verdict stays `decided_by: pattern` only when P reaches the threshold; below it the verdict is a
guess: `decided_by: none` and `ambiguous` (so the LLM, when one is configured, gets to look),
with the pattern's category, title, evidence and id kept as the best guess. A verdict from a
pattern the repository learned (a maintainer named that line as the cause) stays decided. A
line the passing base log prints too is at best even odds, so never decided, a learned
pattern's included. A
category that is no pattern's own (the fallback's keyword guess, or one read from the failing
step's command) keeps at most its own low confidence (`capped`), so it is always a guess; an
`unknown` verdict claims no category, and its P is that of its evidence line.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from repopilot.engine.verdict.calibration_features import Features, Seen, features_of
from repopilot.errors import InputError
from repopilot.records import Verdict

DATA = Path(__file__).with_name("calibration.json")


class CalibrationError(InputError):
    """A calibration data file that cannot be used: one line, what and where."""


class Judge(Protocol):
    """What the classifier hands every failed verdict to (the Model; a recorder when fitting)."""

    def judge(self, v: Verdict, seen: Seen) -> Verdict: ...


@dataclass(frozen=True, slots=True)
class Model:
    """A fitted logistic model: P = 1 / (1 + exp(-(intercept + sum(w * x))))."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    threshold: float

    def probability(self, f: Features) -> float:
        return self.score(f.vector(self.features))

    def score(self, x: list[float]) -> float:
        z = self.intercept + sum(w * v for w, v in zip(self.weights, x, strict=True))
        return sigmoid(z)

    def judge(self, v: Verdict, seen: Seen) -> Verdict:
        """`v` with its calibrated confidence; a pattern verdict below the threshold a guess."""
        if not v.failed:
            return v
        f = features_of(seen, v)
        p = capped(self.probability(f), f)
        # a learned pattern stays decided (a maintainer named its line), unless the green base
        # log prints that line too
        sure = v.learned_from is not None and not f.in_base
        if v.decided_by == "pattern" and p < self.threshold and not sure:
            return dataclasses.replace(v, confidence=p, decided_by="none", ambiguous=True)
        return dataclasses.replace(v, confidence=p)

    def to_json(self, about: dict[str, Any] | None = None) -> str:
        data: dict[str, Any] = {
            "about": about or {},
            "threshold": round(self.threshold, 6),
            "intercept": round(self.intercept, 6),
            "weights": {n: round(w, 6) for n, w in zip(self.features, self.weights, strict=True)},
        }
        return json.dumps(data, indent=2) + "\n"


# A line the passing base log prints too did not fail the job by itself: whatever else the
# verdict has for it, at best even odds (a rule, not fitted: the folds hold no base-log rows).
OLD_LINE = 0.5


def capped(p: float, f: Features) -> float:
    """`p`, at most OLD_LINE when the green base log prints evidence[0] too (it is then never
    decided), and at most the verdict's own confidence when its category is no pattern's own
    (the fallback's keyword guess, or one read from the failing step's command): the labels
    that fitted the model name a category only on the gha corpus, where such verdicts hardly
    occur, so the model cannot vouch for that category."""
    if f.in_base:
        p = min(p, OLD_LINE)
    if (f.pattern and not f.recast) or f.unknown:  # `unknown` claims no category: P is its line's
        return p
    return min(p, f.prior_confidence)


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def load(path: Path) -> Model:
    """The model in `path` (module docstring); CalibrationError names what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"{path}: not JSON: {exc}") from None
    return parse(data, str(path))


def parse(data: Any, where: str) -> Model:
    """A Model from calibration.json's decoded content."""
    if not isinstance(data, dict):
        raise CalibrationError(f"{where}: expected an object with threshold, intercept, weights")
    weights = data.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise CalibrationError(f"{where}: 'weights' must be an object of feature: weight")
    known = set(Features.names())
    for name, w in weights.items():
        if name not in known:
            raise CalibrationError(f"{where}: weights: unknown feature {name!r}")
        if not _number(w):
            raise CalibrationError(f"{where}: weights: {name}: not a number: {w!r}")
    for key in ("intercept", "threshold"):
        if not _number(data.get(key)):
            raise CalibrationError(f"{where}: {key!r} must be a number")
    threshold = float(data["threshold"])
    if not 0.0 <= threshold <= 1.0:
        raise CalibrationError(f"{where}: 'threshold' must be within 0..1, not {threshold}")
    return Model(
        features=tuple(weights),
        weights=tuple(float(w) for w in weights.values()),
        intercept=float(data["intercept"]),
        threshold=threshold,
    )


def _number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


@functools.cache
def bundled() -> Model:
    """The model shipped beside this module, read once per process."""
    return load(DATA)
