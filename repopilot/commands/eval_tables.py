"""`repopilot eval`'s grouped tables (per repository, per shape) and the base-log pairs section,
as JSON-ready dicts and as text lines. The figures come from engine/measure's records.

A shape is `log format / cause line` (engine/measure/shapes.py): how the reader reads the log
(`gha`, `gh-cli`, `plain`, `go-test-json`) and which kind of line the verdict gives as the cause
(`pattern`, `pattern+assertion`, `pattern+step-prior`, `fallback`, `fallback+step-prior`,
`step-end`, ...). The per-shape table has a row per shape, then the subtotals per log format and
per cause line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from repopilot.engine.measure.evaluate import Outcome, Report
from repopilot.engine.measure.pairs import PairOutcome, PairsReport
from repopilot.engine.measure.shapes import shape

SHAPES_HELP = """\
tables: per ecosystem, per repository (the workspace path in the log, else the row's repo
column), and per shape = LOG FORMAT / CAUSE LINE, both read from the log and its verdict only:
  log format  gha (runner log, timestamped lines), gh-cli (`gh run view --log` file),
              plain (console: Travis, Jenkins, local), go-test-json (test2json events, decoded)
  cause line  pattern (a pattern's line), pattern+assertion (a test's assertion message first,
              the test's line second), pattern+step-prior (the category from the failing
              step's command), fallback (no pattern: the last error-looking lines),
              fallback+step-prior, step-end (nothing error-like: the step's last output and
              header), llm, no-failure, error; +base-log when compared with a base log
then the subtotals per log format and per cause line. Columns: logs, category accuracy,
key line (evidence[0]), key line in Contract 1 order (evidence[1] after a test's assertion),
decided by patterns; passing/FP for the passing logs."""
PAIRS_HELP = """\
--base-logs PAIRS.csv: each pair's failed log (DIR/logs/<failed_id>.log, labelled) scored
without and with DIR/negatives/<passing_id>.log (else DIR/logs/) as `classify --base-log`
would use it; both rows side by side, and the logs whose category or key line changed."""

# the columns of a grouped table, per corpus: metric name -> Outcome attribute ("" = decided)
GHA_COLUMNS: dict[str, str] = {
    "accuracy": "category_ok",
    "key_line": "key_ok",
    "key_line_contract": "key_ok_contract",
    "decided": "",
}
CHUNK_COLUMNS: dict[str, str] = {
    "precision_at_1": "first_inside",
    "any_inside": "any_inside",
    "decided": "",
}
PAIR_ROWS = (
    ("category accuracy", "accuracy"),
    ("key-line hit", "key_line"),
    ("key line, Contract 1 order", "key_line_contract"),
    ("decided by patterns", "decided"),
)


def columns(report: Report) -> dict[str, str]:
    return GHA_COLUMNS if report.corpus == "gha" else CHUNK_COLUMNS


def figures(report: Report, rows: list[Outcome]) -> dict[str, Any]:
    """`logs` and each column's share over `rows`, rounded for JSON."""
    out: dict[str, Any] = {"logs": len(rows)}
    for name, attr in columns(report).items():
        rate = report.rate(attr, rows) if attr else report.decided(rows)
        out[name] = round(rate.value, 4)
    return out


def grouped(report: Report, key: Callable[[Outcome], str]) -> dict[str, dict[str, Any]]:
    """Figures per value of `key`; passing logs and false positives too where there are any."""
    out = {k: figures(report, rows) for k, rows in report.grouped(key).items()}
    for k, rows in report.grouped(key, negatives=True).items():
        row = out.setdefault(k, {"logs": 0})
        row["passing_logs"] = len(rows)
        row["false_positives"] = sum(1 for o in rows if o.got != "no_failure")
    return dict(sorted(out.items()))


def per_repository(report: Report) -> dict[str, dict[str, Any]]:
    """Each project's figures: a fix that helps one project only shows up here."""
    return grouped(report, lambda o: o.repository)


def per_shape(report: Report) -> dict[str, dict[str, dict[str, Any]]]:
    """Figures per shape (`format / cause`), per log format and per cause line."""
    return {
        "shapes": grouped(report, lambda o: shape(o.log_format, o.cause)),
        "log_formats": grouped(report, lambda o: o.log_format),
        "causes": grouped(report, lambda o: o.cause),
    }


def table(
    title: str, key: str, data: dict[str, dict[str, Any]], cols: tuple[str, ...]
) -> list[str]:
    """A grouped table as text lines: one row per key, `passing/FP` where passing logs count."""
    width = max([len(k) for k in data] + [len(key), 10])
    lines = [f"{title}:"]
    tail = any("passing_logs" in v for v in data.values())
    head = f"  {key:<{width}} {'logs':>5} " + " ".join(f"{c:>17}" for c in cols)
    lines.append(head + ("  passing/FP" if tail else ""))
    for k, v in data.items():
        cells = " ".join(f"{pct(v[c]):>17}" if c in v and v["logs"] else f"{'-':>17}" for c in cols)
        end = f"  {v['passing_logs']}/{v['false_positives']}" if "passing_logs" in v else ""
        lines.append(f"  {k:<{width}} {v['logs']:>5} {cells}{end}")
    return lines


def shape_tables(report: Report, data: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    cols = tuple(columns(report))
    return (
        table("per shape (log format / cause line)", "shape", data["shapes"], cols)
        + table("per log format", "log format", data["log_formats"], cols)
        + table("per cause line", "cause line", data["causes"], cols)
    )


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def pairs_summary(pr: PairsReport) -> dict[str, Any]:
    """Both sides' rates over the pairs, and the logs whose verdict changed."""
    sides = {}
    for name, with_base in (("without", False), ("with", True)):
        side = pr.side(with_base)
        sides[name] = {k: v for k, v in figures(side, side.outcomes).items() if k != "logs"}
    return {
        "pairs": len(pr.pairs),
        "green_base_logs": sum(1 for p in pr.pairs if p.green),
        **sides,
        "changed": [_change(p) for p in pr.changed()],
        "not_green": [p.passing_id for p in pr.pairs if not p.green],
        "errors": [o.error for p in pr.pairs for o in (p.without, p.with_base) if o.error],
    }


def _change(p: PairOutcome) -> dict[str, Any]:
    a, b = p.without, p.with_base
    return {
        "id": a.id,
        "base_log": p.passing_id,
        "expected": a.expected,
        "key_line": a.key_line,
        "without": {"category": a.got, "line": _first(a), "cause": a.cause},
        "with": {"category": b.got, "line": _first(b), "cause": b.cause},
        "change": p.change,
    }


def _first(o: Outcome) -> int | None:
    return o.evidence[0] if o.evidence else None


def render_pairs(pr: PairsReport, data: dict[str, Any]) -> list[str]:
    lines = [
        f"with and without a base log ({data['pairs']} pairs, "
        f"{data['green_base_logs']} base logs read as passing):",
        f"  {'':<27} {'without':>14} {'with':>14}",
    ]
    without, with_ = pr.side(False), pr.side(True)
    for label, name in PAIR_ROWS:
        attr = GHA_COLUMNS[name]
        a = without.rate(attr) if attr else without.decided()
        b = with_.rate(attr) if attr else with_.decided()
        lines.append(f"  {label:<27} {str(a):>14} {str(b):>14}")
    lines.append(f"changed with the base log ({len(data['changed'])}):")
    for c in data["changed"]:
        w, b = c["without"], c["with"]
        lines.append(
            f"  {c['id']}  {c['change']}: {w['category']} line {w['line']} ({w['cause']}) -> "
            f"{b['category']} line {b['line']} ({b['cause']}); label {c['expected']} "
            f"line {c['key_line']}"
        )
    if data["not_green"]:
        lines.append(
            f"  base logs read as failed (nothing demoted): {', '.join(data['not_green'])}"
        )
    lines += [f"  error: {e}" for e in data["errors"]]
    return lines
