"""Fit the calibrated confidence by repository-disjoint folds (issue 27, `repopilot calibrate`).

Rows (engine/measure/calibration_rows.py) are grouped by repository and the repositories dealt to
FOLDS folds, largest first, each to the fold with the fewest rows so far: no repository is in two
folds. Each fold is scored by a model fitted on the other folds only, with a threshold chosen on
those other folds too (nested: their own out-of-fold predictions), so no figure of a fold comes
from anything fitted on its repositories. The data file's model is then fitted on every row, its
threshold chosen on the pooled out-of-fold predictions for PRECISION.

A repository, not a log, is the unit of evidence: one project's logs are often the same failure
built again and again (one wrong verdict repeated in nine builds of one project), so counted per log
they make the fit and above all the threshold chase that project. The fit weighs each row
n^-REPO_FIT, n its repository's rows (1/sqrt(n): between per log and per repository), and the
threshold is chosen with each repository counting once (each row 1/n): the precision a project
not yet seen can expect. The figures are still per log.

`spread` scores the same procedure on further repository-disjoint partitions, the repositories
dealt in a seeded random order: one partition's figures depend on which projects fell together.

Leave-winning-pattern-out rows train (and, with `augment_threshold`, take part in choosing the
threshold); the figures are scored on the real rows.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from repopilot.engine.measure.calibration_rows import Row
from repopilot.engine.measure.logistic import Fit, fit
from repopilot.engine.measure.reliability import (
    PRECISION,
    Scored,
    Summary,
    decide,
    summarise,
    threshold_for,
)
from repopilot.engine.measure.shapes import shape
from repopilot.engine.verdict.confidence import Model

FOLDS = 5
L2 = 0.3
REPO_FIT = 0.5  # a row's weight in the fit: n^-REPO_FIT, n its repository's rows
REPO_THRESHOLD = 1.0  # ... in choosing the threshold: n^-REPO_THRESHOLD (each repository once)
PARTITIONS = 8  # the further random partitions `spread` scores
# The features the data file weighs: of Features' candidates, the few that held up on the folds,
# chosen by forward selection scored on `spread` (8 further partitions; each step kept only what
# raised decided precision, decided share and the worst partition's precision together: see the
# commit message). `recast` left: a recast verdict is capped at its own confidence anyway.
SELECTED = (
    "pattern",
    "unknown",
    "log_size",
    "exit_reported",
    "in_step",
    "wrapper",
    "lead_not_hit",
    "summary",
    "rival_close",
)


@dataclass(frozen=True, slots=True)
class Options:
    folds: int = FOLDS
    l2: float = L2
    precision: float = PRECISION
    augment: bool = True  # train on the leave-winning-pattern-out rows
    rescale: bool = True  # ... then rescale the scores on the real rows (Platt)
    augment_threshold: bool = False  # choose the threshold on the leave-out rows too
    features: tuple[str, ...] = SELECTED
    repo_fit: float = REPO_FIT
    repo_threshold: float = REPO_THRESHOLD


@dataclass(frozen=True, slots=True)
class FoldResult:
    index: int
    repositories: tuple[str, ...]
    threshold: float
    summary: Summary  # the fold's real rows, scored by a model that never saw them
    left_out: Summary  # the fold's leave-out rows, scored the same way
    false_positives: int  # passing logs of the fold's repositories given a failure
    passing: int


@dataclass(frozen=True, slots=True)
class Calibration:
    model: Model
    folds: tuple[FoldResult, ...]
    pooled: tuple[tuple[Row, Scored], ...]  # every real row, decided at its fold's threshold
    pooled_left_out: tuple[tuple[Row, Scored], ...]
    options: Options


def assign_folds(
    repositories: dict[str, int], k: int = FOLDS, seed: int | None = None
) -> dict[str, int]:
    """Repository -> fold: the largest first (in a random order drawn from `seed`, when one is
    given), each to the fold with the fewest rows so far."""
    load = [0] * k
    out: dict[str, int] = {}
    order = sorted(repositories.items(), key=lambda kv: (-kv[1], kv[0]))
    if seed is not None:
        random.Random(seed).shuffle(order)
    for repo, n in order:
        i = min(range(k), key=lambda j: (load[j], j))
        out[repo] = i
        load[i] += n
    return out


def _fit(rows: Sequence[Row], opts: Options) -> Fit:
    """The model of `rows` (with the leave-out rows when `opts.augment`), then rescaled on the
    real rows' own out-of-fold scores when `opts.rescale` (module docstring)."""
    train = [r for r in rows if opts.augment or r.left_out is None]
    raw = fit(
        [r.features.vector(opts.features) for r in train],
        [int(r.right) for r in train],
        opts.l2,
        repo_weights(train, opts.repo_fit),
    )
    if not (opts.augment and opts.rescale):
        return raw
    sizes = _sizes(rows)
    inner = assign_folds(sizes, min(opts.folds, max(2, len(sizes))))
    pairs = [(r, z) for r, z in _oof_linear(rows, inner, opts) if r.left_out is None]
    if len({r.right for r, _ in pairs}) < 2:
        return raw
    a_b = fit(
        [[z] for _, z in pairs],
        [int(r.right) for r, _ in pairs],
        1e-6,
        repo_weights([r for r, _ in pairs], opts.repo_fit),
    )
    a, b = a_b.weights[0], a_b.intercept
    return Fit(a * raw.intercept + b, tuple(a * w for w in raw.weights))


def _linear(f: Fit, x: Sequence[float]) -> float:
    return f.intercept + sum(w * v for w, v in zip(f.weights, x, strict=True))


def _oof_linear(
    rows: Sequence[Row], folds: dict[str, int], opts: Options
) -> list[tuple[Row, float]]:
    """Each row's linear score by the unrescaled model of the other folds."""
    raw = dataclasses.replace(opts, rescale=False)
    out: list[tuple[Row, float]] = []
    for k in sorted(set(folds.values())):
        train = [r for r in rows if folds[r.repository] != k]
        test = [r for r in rows if folds[r.repository] == k]
        if test and train:
            f = _fit(train, raw)
            out.extend((r, _linear(f, r.features.vector(opts.features))) for r in test)
    return out


def repo_weights(rows: Sequence[Row], power: float) -> list[float]:
    """Each row's weight n^-power (n: its repository's rows among `rows`), scaled to sum to
    len(rows) so the fit's penalty keeps its strength."""
    sizes = _sizes(rows)
    raw = [sizes[r.repository] ** -power for r in rows]
    scale = len(rows) / sum(raw) if raw else 1.0
    return [w * scale for w in raw]


def _sizes(rows: Sequence[Row]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for r in rows:
        sizes[r.repository] = sizes.get(r.repository, 0) + 1
    return sizes


def _scored(f: Fit, rows: Sequence[Row], opts: Options) -> list[Scored]:
    return [r.scored(f.score(r.features.vector(opts.features))) for r in rows]


def out_of_fold(
    rows: Sequence[Row], folds: dict[str, int], opts: Options
) -> list[tuple[Row, Scored]]:
    """Each row scored by the model fitted on the other folds."""
    out: list[tuple[Row, Scored]] = []
    for k in sorted(set(folds.values())):
        train = [r for r in rows if folds[r.repository] != k]
        test = [r for r in rows if folds[r.repository] == k]
        if not test:
            continue
        if not train:
            out.extend((r, r.scored(0.5)) for r in test)
            continue
        out.extend(zip(test, _scored(_fit(train, opts), test, opts), strict=True))
    return out


def _threshold(pairs: Sequence[tuple[Row, Scored]], opts: Options) -> float:
    use = [(r, s) for r, s in pairs if opts.augment_threshold or r.left_out is None]
    decidable = [r for r, s in use if s.decidable]
    sizes = _sizes(decidable)
    weights = [sizes.get(r.repository, 1) ** -opts.repo_threshold for r, _ in use]
    return threshold_for([s for _, s in use], opts.precision, weights)


def calibrate(
    rows: Sequence[Row],
    passing: Sequence[tuple[str, bool]] = (),
    opts: Options | None = None,
    progress: Callable[[str], None] = lambda s: None,
    seed: int | None = None,
) -> Calibration:
    """Fit and score by repository-disjoint folds (module docstring). `passing`: each passing
    log's repository and whether it was given a failure (for the folds' false positives);
    `seed`: deal the repositories to the folds in that random order (assign_folds)."""
    opts = opts or Options()
    sizes = _sizes(rows)
    for repo, _ in passing:  # a passing log's project goes to a fold too (its FP counts there)
        sizes[f"gha:{repo}"] = sizes.get(f"gha:{repo}", 0) + 1
    folds = assign_folds(sizes, opts.folds, seed)
    results: list[FoldResult] = []
    pooled: list[tuple[Row, Scored]] = []
    pooled_out: list[tuple[Row, Scored]] = []
    for k in range(opts.folds):
        train_rows = [r for r in rows if folds[r.repository] != k]
        test = [r for r in rows if folds[r.repository] == k]
        inner = assign_folds(_sizes(train_rows), opts.folds - 1)
        t = _threshold(out_of_fold(train_rows, inner, opts), opts)
        f = _fit(train_rows, opts)
        decided = list(zip(test, decide(_scored(f, test, opts), t), strict=True))
        real = [(r, s) for r, s in decided if r.left_out is None]
        extra = [(r, s) for r, s in decided if r.left_out is not None]
        pooled += real
        pooled_out += extra
        repos = tuple(sorted(repo for repo, i in folds.items() if i == k))
        neg = [fp for repo, fp in passing if folds.get(f"gha:{repo}", -1) == k]
        results.append(
            FoldResult(
                k,
                repos,
                t,
                summarise([s for _, s in real]),
                summarise([s for _, s in extra]),
                sum(neg),
                len(neg),
            )
        )
        progress(f"fold {k + 1}/{opts.folds}: threshold {t:.3f}")
    final = _fit(rows, opts)
    threshold = _threshold(out_of_fold(rows, folds, opts), opts)
    model = Model(opts.features, final.weights, final.intercept, threshold)
    return Calibration(model, tuple(results), tuple(pooled), tuple(pooled_out), opts)


def spread(
    rows: Sequence[Row],
    opts: Options | None = None,
    partitions: int = PARTITIONS,
    progress: Callable[[str], None] = lambda s: None,
) -> tuple[Summary, ...]:
    """The pooled out-of-fold figures on `partitions` further partitions (seeds 1..N; module
    docstring), each fitted and scored as `calibrate` does."""
    out = []
    for seed in range(1, partitions + 1):
        cal = calibrate(rows, (), opts, seed=seed)
        out.append(summarise([s for _, s in cal.pooled]))
        progress(f"partition {seed}/{partitions}")
    return tuple(out)


def per_shape(pairs: Sequence[tuple[Row, Scored]]) -> dict[str, Summary]:
    """The pooled out-of-fold figures per shape (log format / cause line)."""
    groups: dict[str, list[Scored]] = {}
    for r, s in pairs:
        key = f"{r.corpus}: {shape(r.outcome.log_format, r.outcome.cause)}"
        groups.setdefault(key, []).append(s)
    return {k: summarise(v) for k, v in sorted(groups.items())}
