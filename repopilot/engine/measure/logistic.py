"""L2-regularised logistic regression by Newton's method (IRLS), in pure Python.

The calibration data is small (a few thousand rows, a few dozen features): a dozen Newton steps
of a d x d system solve it exactly, with no numerical library. The intercept is not penalised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from repopilot.engine.verdict.confidence import sigmoid

MAX_STEPS = 50
TOLERANCE = 1e-8


@dataclass(frozen=True, slots=True)
class Fit:
    intercept: float
    weights: tuple[float, ...]

    def score(self, x: Sequence[float]) -> float:
        return sigmoid(self.intercept + sum(w * v for w, v in zip(self.weights, x, strict=True)))


def fit(
    x: Sequence[Sequence[float]],
    y: Sequence[int],
    l2: float = 1.0,
    weights: Sequence[float] | None = None,
) -> Fit:
    """The weights minimising the log loss over rows `x` with labels `y` (0/1), each row's
    loss times its `weights` entry (1 when None), plus `l2`/2 * |w|^2. A column that never
    varies gets weight 0 (the penalty keeps it there)."""
    if len(x) != len(y) or not x:
        raise ValueError("fit needs as many labels as rows, and at least one row")
    if weights is not None and (len(weights) != len(y) or min(weights) < 0):
        raise ValueError("fit needs one weight >= 0 per row")
    each = weights if weights is not None else [1.0] * len(y)
    d = len(x[0]) + 1  # the intercept is column 0
    rows = [[1.0, *r] for r in x]
    beta = [0.0] * d
    for _ in range(MAX_STEPS):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for r, t, wt in zip(rows, y, each, strict=True):
            p = sigmoid(sum(b * v for b, v in zip(beta, r, strict=True)))
            err, s = (p - t) * wt, p * (1 - p) * wt
            for i, ri in enumerate(r):
                if ri == 0.0:
                    continue
                grad[i] += err * ri
                si = s * ri
                hi = hess[i]
                for j in range(i + 1):
                    hi[j] += si * r[j]
        for i in range(d):
            for j in range(i):
                hess[j][i] = hess[i][j]
        for i in range(1, d):
            grad[i] += l2 * beta[i]
            hess[i][i] += l2
        hess[0][0] += 1e-9  # an all-one or all-zero label column leaves no curvature
        step = _solve(hess, grad)
        beta = [b - s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < TOLERANCE:
            break
    return Fit(beta[0], tuple(beta[1:]))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a @ x = b (Gaussian elimination, partial pivoting); a is d x d, positive definite."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        head = m[col][col]
        if abs(head) < 1e-300:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / head
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        head = m[r][r]
        acc = m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))
        out[r] = acc / head if abs(head) >= 1e-300 else 0.0
    return out


def log_loss(fitted: Fit, x: Sequence[Sequence[float]], y: Sequence[int]) -> float:
    total = 0.0
    for r, t in zip(x, y, strict=True):
        p = min(max(fitted.score(r), 1e-12), 1 - 1e-12)
        total -= math.log(p) if t else math.log(1 - p)
    return total / max(1, len(y))
