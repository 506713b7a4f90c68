"""The figures of `repopilot eval --learn` (engine/measure/learn_eval.py) as a table per
repository with the totals, and as JSON (`--format json`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from repopilot.engine.measure.learn_eval import SAME_FAILURE, RepoFigures

_WHERE = re.compile(r"^.*?:\d+: (?:no safe pattern: )?")  # `repo: path:line: ` before the reason
_SUMS = ("logs", "later", "found_base", "found_learn", "category_base", "category_learn",
         "labelled", "recurring", "recurring_base", "recurring_learn", "learn_tried", "learned",
         "widened", "retired", "patterns", "fired", "false_hits")  # fmt: skip


def total(figures: Sequence[RepoFigures]) -> RepoFigures:
    out = RepoFigures("all")
    for f in figures:
        for k in _SUMS:
            setattr(out, k, getattr(out, k) + getattr(f, k))
        out.refusals.extend(f.refusals)
    return out


def _rate(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def as_dict(f: RepoFigures) -> dict[str, object]:
    """The wire form (`--format json`)."""
    return {
        **{k: getattr(f, k) for k in ("repo", *_SUMS)},
        "found_base_rate": _rate(f.found_base, f.later),
        "found_learn_rate": _rate(f.found_learn, f.later),
        "recurring_base_rate": _rate(f.recurring_base, f.recurring),
        "recurring_learn_rate": _rate(f.recurring_learn, f.recurring),
        "learn_rate": _rate(f.learned, f.learn_tried),
        "wrong_line_rate": _rate(f.false_hits, f.later),
        "refusals": list(f.refusals),
    }


def reason(refusal: str) -> str:
    """A refusal without where it happened: what kind of refusal it is."""
    return _WHERE.sub("", refusal, count=1)


def render(figures: Sequence[RepoFigures], tot: RepoFigures) -> str:
    head = (
        f"{'repository':<32} {'logs':>4} {'later':>5} {'cause w/o':>9} {'cause with':>10} "
        f"{'recurring':>9} {'rec w/o':>7} {'rec with':>8} {'learned':>9} {'widened':>7} "
        f"{'fired':>5} {'wrong':>5}"
    )
    rows = [head]
    for f in [*figures, tot]:
        rows.append(
            f"{f.repo[:32]:<32} {f.logs:>4} {f.later:>5} {_pct(f.found_base, f.later):>9} "
            f"{_pct(f.found_learn, f.later):>10} {f.recurring:>9} "
            f"{_pct(f.recurring_base, f.recurring):>7} {_pct(f.recurring_learn, f.recurring):>8} "
            f"{f'{f.learned}/{f.learn_tried}':>9} {f.widened:>7} {f.fired:>5} {f.false_hits:>5}"
        )
    rows += [
        "",
        f"later builds, cause in the labelled lines: {_pct(tot.found_base, tot.later)} without "
        f"learning, {_pct(tot.found_learn, tot.later)} with ({tot.later} later builds)",
        f"recurring failures: {tot.recurring} of {tot.later} later builds "
        f"({_pct(tot.recurring, tot.later)}); cause found {_pct(tot.recurring_base, tot.recurring)}"
        f" without learning, {_pct(tot.recurring_learn, tot.recurring)} with ({SAME_FAILURE})",
        f"learn succeeds: {tot.learned} of {tot.learn_tried} attempts "
        f"({_pct(tot.learned, tot.learn_tried)}), {tot.widened} of them widening an earlier "
        f"learned pattern; {tot.retired} earlier learned patterns retired (a later example "
        f"named another line of a log they decided); {tot.patterns} learned patterns in the end",
        f"learned patterns decided {tot.fired} later builds, {tot.false_hits} on a line outside "
        f"the labelled ones ({_pct(tot.false_hits, tot.later)} of later builds)",
    ]
    if tot.labelled:
        rows.append(
            f"category right on labelled later builds: {_pct(tot.category_base, tot.labelled)} "
            f"without, {_pct(tot.category_learn, tot.labelled)} with"
        )
    if tot.refusals:
        kinds = Counter(reason(r) for r in tot.refusals)
        rows.append(f"refusals ({len(tot.refusals)}), by reason:")
        rows += [f"  {n} x {why}" for why, n in kinds.most_common()]
        rows.append("refusals, each:")
        rows += [f"  {r}" for r in tot.refusals]
    return "\n".join(rows)
