"""The real-runs set (benchmarks/real_runs/): CI logs whose tool output real tools printed on
this machine for small broken projects, wrapped as GitHub Actions and GitLab job logs. It is held
out from `repopilot calibrate`; these tests keep it readable and guard its figures.

The floors are the figures measured when the set was made, less a margin of a few logs: a change
that loses more is a regression on tool output nobody tuned the engine to. The set is split in
half by scenario (`half`), and the engine's rules were changed only from the `dev` half's misses;
the `test` half's figure is the one that says how the engine does on unseen output.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import tomllib

import pytest

from repopilot.engine.measure.evaluate import case_outcome, default_classifier, evaluate_gha
from repopilot.engine.measure.labels import gha_cases
from repopilot.records import TAXONOMY
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit

SET = FIXTURES / "real_runs"
SCENARIOS = REPO_ROOT / "benchmarks" / "real_runs" / "scenarios"
WRAPPERS = ("gha", "gitlab")


def half(ident: str) -> str:
    """`dev` or `test`: the scenario's (both wrappers together) fixed half of the set."""
    key = ident.rsplit("-", 1)[0]
    return "dev" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % 2 == 0 else "test"


def _rows(name: str) -> list[dict[str, str]]:
    with (SET / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_scenario_has_both_logs_and_one_label_each():
    labels = {r["id"]: r for r in _rows("labels.csv")}
    passing = {r["id"] for r in _rows("negatives.csv")}
    scenarios = sorted(p.parent for p in SCENARIOS.glob("*/*/scenario.toml"))
    assert len(scenarios) >= 150
    for folder in scenarios:
        sc = tomllib.loads((folder / "scenario.toml").read_text(encoding="utf-8"))
        assert sc["category"] in TAXONOMY, folder
        for wrapper in WRAPPERS:
            ident = f"{folder.parent.name}-{folder.name}-{wrapper}"
            if sc["category"] == "no_failure":
                assert ident in passing and (SET / "negatives" / f"{ident}.log").is_file()
            else:
                assert labels[ident]["category"] == sc["category"], ident
                assert (SET / "logs" / f"{ident}.log").is_file(), ident
    assert len(labels) + len(passing) == 2 * len(scenarios)


def test_each_label_names_the_line_its_log_holds():
    for row in _rows("labels.csv"):
        lines = (SET / "logs" / f"{row['id']}.log").read_text(encoding="utf-8").split("\n")
        got = lines[int(row["key_line_no"]) - 1]
        assert got == row["key_line"] or got.endswith(" " + row["key_line"]), row["id"]


def test_no_log_names_this_machine():
    """The generator put the runner's own paths in place of this machine's."""
    for path in sorted(SET.glob("*/*.log")):
        text = path.read_text(encoding="utf-8")
        assert "/tmp/rr-" not in text and str(REPO_ROOT) not in text, path.name


@pytest.fixture(scope="module")
def report():
    return evaluate_gha(default_classifier(None), SET, SET / "labels.csv")


def test_the_figures_hold(report):
    outcomes = report.outcomes
    n = len(outcomes)
    decided = [o for o in outcomes if o.decided]
    assert sum(o.category_ok for o in outcomes) / n >= 0.80  # measured 83.8%
    assert sum(o.key_ok_contract for o in outcomes) / n >= 0.66  # 70.4%
    assert sum(o.top3 for o in outcomes) / n >= 0.78  # 82.3%
    assert sum(o.right for o in decided) / len(decided) >= 0.63  # 67.5% (158/234)
    assert [o.id for o in report.negatives if o.got != "no_failure"] == []  # 0 of 60 passing


def test_the_held_out_half_is_measured_apart(report):
    """The `test` half, whose misses no rule was written from, keeps its own floor."""
    cases = {c.id: c for c in gha_cases(SET, SET / "labels.csv")}
    held = [o for o in report.outcomes if half(o.id) == "test"]
    assert len(held) >= 100 and all(o.id in cases for o in held)
    decided = [o for o in held if o.decided]
    assert sum(o.right for o in decided) / len(decided) >= 0.57  # measured 62.2% (61/98)


def test_a_wrong_verdict_shows_in_the_figures():
    """The figures come from the engine's real verdicts: a label moved off its line is a miss."""
    [case] = [
        c for c in gha_cases(SET, SET / "labels.csv") if c.id == "rust-e0308-type-mismatch-gha"
    ]
    classify = default_classifier(None)
    assert case_outcome(classify, case).right
    moved = dataclasses.replace(case, key_line=1)
    assert not case_outcome(classify, moved).right
