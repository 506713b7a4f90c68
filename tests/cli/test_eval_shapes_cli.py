"""The CLI side of issue 20's measurements: `repopilot eval gha` prints the per-shape tables and,
with `--base-logs PAIRS.csv`, both sides of the pairs (text and JSON); `repopilot patterns stats`
counts patterns per category and per kind of `source:`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.cli import main
from repopilot.commands.pattern_stats import source_kind, stats
from repopilot.engine.library.loader import load_library
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GHA = FIXTURES / "eval_shapes" / "gha"


def _eval(capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["eval", "gha", str(GHA), str(GHA / "labels.csv"), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_has_the_shape_tables_and_the_pairs(capsys):
    code, out, _ = _eval(capsys, "--base-logs", str(GHA / "pairs.csv"))
    assert code == 0
    for title in ("per shape (log format / cause line):", "per log format:", "per cause line:"):
        assert title in out
    assert "\n  gh-cli / pattern " in out and "\n  go-test-json / " in out
    assert "with and without a base log (2 pairs, 1 base logs read as passing):" in out
    assert "changed with the base log (1):\n  gha-probe  better: " in out
    # no --base-logs: no pairs section
    code, out, _ = _eval(capsys)
    assert code == 0 and "per shape" in out and "base log" not in out


def test_json_has_per_shape_and_base_logs(capsys):
    code, out, _ = _eval(capsys, "--format", "json", "--base-logs", str(GHA / "pairs.csv"))
    assert code == 0
    data = json.loads(out)
    shapes = data["per_shape"]
    assert set(shapes) == {"shapes", "log_formats", "causes"}
    assert {k: v["logs"] for k, v in shapes["log_formats"].items()} == {
        "gh-cli": 1,
        "gha": 3,
        "go-test-json": 1,
        "plain": 1,
    }
    assert sum(v["logs"] for v in shapes["causes"].values()) == data["logs"] == 6
    pairs = data["base_logs"]
    assert pairs["pairs"] == 2 and pairs["not_green"] == ["gha-odd"]
    assert (
        set(pairs["without"])
        == set(pairs["with"])
        == {
            "accuracy",
            "key_line",
            "key_line_contract",
            "decided",
        }
    )
    assert [c["id"] for c in pairs["changed"]] == ["gha-probe"]
    assert "base_logs" not in json.loads(_eval(capsys, "--format", "json")[1])


def test_a_bad_pairs_file_is_one_line(capsys, tmp_path: Path):
    bad = tmp_path / "pairs.csv"
    bad.write_text("failed_id,passing_id\nunknown-log,gha-probe-pass\n")
    code, out, err = _eval(capsys, "--base-logs", str(bad))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "failed_id 'unknown-log' is not labelled" in err
    code, _, err = _eval(capsys, "--base-logs", str(tmp_path / "none.csv"))
    assert code == 2 and "cannot read" in err
    code, _, err = _eval(capsys, "--base-logs", str(GHA / "pairs.csv"), "--learn")
    assert code == 2 and "--base-logs and --learn" in err


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("https://docs.pytest.org/en/stable/how-to/output.html", "docs-url"),
        ("https://github.com/koalaman/shellcheck/wiki/SC2086", "docs-url"),
        ("https://github.com/rust-lang/rustfmt/blob/master/src/lib.rs", "repo-url"),
        ("https://raw.githubusercontent.com/golang/go/master/src/cmd/go/alldocs.go", "repo-url"),
        ("https://gitlab.com/group/tool/-/blob/main/README.md", "repo-url"),
        ("golang/go:src/cmd/internal/test2json/testdata/ascii.test", "repo-file"),
        ("learned from .github/workflows/ci.yml:12", "learned"),
        (None, "none"),
        ("  ", "none"),
    ],
)
def test_source_kind(source, kind):
    assert source_kind(source) == kind


PATTERNS = """\
ecosystem: demo
patterns:
  - id: demo.one
    category: test_failure
    source: 'https://example.org/docs/output'
    regex: '^DEMO FAIL (?P<name>\\w+)$'
    priority: 80
    confidence: 0.8
    title: 'demo: {name}'
    examples:
      match: ['DEMO FAIL alpha']
      no_match: ['DEMO PASS alpha']
  - id: demo.two
    category: test_failure
    source: 'demo/tool:testdata/fail.txt'
    regex: '^DEMO BROKE (?P<name>\\w+)$'
    priority: 80
    confidence: 0.8
    title: 'demo: {name}'
    examples:
      match: ['DEMO BROKE alpha']
      no_match: ['DEMO FINE alpha']
  - id: demo.three
    category: lint_format
    source: 'https://github.com/demo/lint/blob/main/README.md'
    regex: '^DEMO LINT (?P<name>\\w+)$'
    priority: 80
    confidence: 0.8
    title: 'demo: {name}'
    examples:
      match: ['DEMO LINT alpha']
      no_match: ['DEMO LINTED alpha']
  - id: demo.four
    category: lint_format
    regex: '^DEMO STYLE (?P<name>\\w+)$'
    priority: 80
    confidence: 0.8
    title: 'demo: {name}'
    examples:
      match: ['DEMO STYLE alpha']
      no_match: ['DEMO STYLED alpha']
"""


def test_patterns_stats_counts(capsys, tmp_path: Path):
    (tmp_path / "demo.yaml").write_text(PATTERNS)
    assert main(["patterns", "stats", "--patterns", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "patterns": 4,
        "per_category": {"lint_format": 2, "test_failure": 2},
        "per_source_kind": {"docs-url": 1, "repo-file": 1, "repo-url": 1, "none": 1},
        "per_category_and_source_kind": {
            "lint_format": {"none": 1, "repo-url": 1},
            "test_failure": {"docs-url": 1, "repo-file": 1},
        },
    }
    assert main(["patterns", "stats", "--patterns", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "4 patterns"
    assert out[1].split() == ["category", "all", "docs-url", "repo-file", "repo-url", "none"]
    assert out[2].split() == ["lint_format", "2", "0", "0", "1", "1"]
    assert (
        out[-1]
        == "by source kind: docs-url 1 (25%), repo-file 1 (25%), repo-url 1 (25%), none 1 (25%)"
    )


def test_bundled_library_stats_add_up():
    library = load_library()
    got = stats(library)
    assert got.total == len(library) > 100
    assert sum(got.kinds.values()) == sum(got.categories.values()) == got.total
    assert "none" not in got.kinds  # every bundled pattern says where its format is documented
    assert sum(n for row in got.by_category.values() for n in row.values()) == got.total
