"""`repopilot patterns test|lint` on the real library (as CI runs them) and on broken libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.engine.library.loader import load_file
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
LIBRARY = ROOT / "patterns"
OURS = ("python", "node", "infra", "cilint")


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.integration
def test_library_examples_pass():
    res = cli("patterns", "test", "--patterns", str(LIBRARY))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 error(s)" in res.stderr


@pytest.mark.integration
def test_library_lint_is_clean():
    res = cli("patterns", "lint", "--patterns", str(LIBRARY))
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.unit
def test_library_size():
    counts = {name: len(load_file(LIBRARY / f"{name}.yaml")) for name in OURS}
    assert sum(counts.values()) >= 90, counts
    total = sum(len(load_file(p)) for p in LIBRARY.glob("*.yaml"))
    assert total >= 150


@pytest.mark.unit
@pytest.mark.parametrize("name", OURS)
def test_every_pattern_has_match_and_near_miss_examples(name):
    for p in load_file(LIBRARY / f"{name}.yaml"):
        assert p.spec.examples.match and p.spec.examples.no_match, p.id
        assert p.id.startswith(f"{name}."), p.id


PATTERN = """\
  - id: {id}
    category: {category}
    regex: '{regex}'
    title: t
    examples: {{match: ['{match}'], no_match: ['{no_match}']}}
"""


def write(path: Path, *patterns: dict) -> None:
    path.write_text("ecosystem: x\npatterns:\n" + "".join(PATTERN.format(**p) for p in patterns))


def good(id_: str) -> dict:
    return dict(
        id=id_, category="other", regex="boom happened", match="boom happened", no_match="all fine"
    )


@pytest.mark.integration
def test_test_reports_failing_examples(tmp_path):
    bad = dict(good("x.wrong"), no_match="boom happened twice")
    write(tmp_path / "a.yaml", good("x.ok"), bad)
    res = cli("patterns", "test", "--patterns", str(tmp_path))
    assert res.returncode == 1
    assert f"{tmp_path / 'a.yaml'}:8: x.wrong: example should not match" in res.stdout
    assert "x.ok" not in res.stdout


@pytest.mark.integration
def test_lint_reports_each_problem_with_its_place(tmp_path):
    write(tmp_path / "a.yaml", good("x.one"), dict(good("x.slow"), regex="(a+)+$ boom happened"))
    write(tmp_path / "b.yaml", good("x.one"))
    write(tmp_path / "c.yaml", dict(good("x.cat"), category="not_a_category"))
    (tmp_path / "d.yaml").write_text("ecosystem: x\npatterns:\n  - id: [unclosed\n")
    res = cli("patterns", "lint", "--patterns", str(tmp_path))
    assert res.returncode == 1
    out = res.stdout
    assert f"{tmp_path / 'b.yaml'}:3: duplicate pattern id x.one (first at " in out
    assert f"{tmp_path / 'c.yaml'}:3: " in out and "category" in out
    assert f"{tmp_path / 'd.yaml'}:" in out and "invalid YAML" in out
    assert "x.slow: regex" in out and "times out" in out
    assert "Traceback" not in res.stderr


@pytest.mark.integration
def test_lint_flags_quadratic_regex_under_a_literal(tmp_path):
    # Two unbounded runs around a literal: fine on real lines, quadratic on 8 KiB of ':'.
    write(
        tmp_path / "a.yaml",
        dict(good("x.quad"), regex=r"\S+::\S+ boom happened", match="a::b boom happened"),
    )
    res = cli("patterns", "lint", "--patterns", str(tmp_path), "--slow-ms", "2")
    assert res.returncode == 1 and "x.quad: regex" in res.stdout


@pytest.mark.integration
def test_missing_directory_is_a_usage_error(tmp_path):
    res = cli("patterns", "test", "--patterns", str(tmp_path / "nope"))
    assert res.returncode == 2
    assert res.stderr.strip() == f"repopilot: {tmp_path / 'nope'}: pattern directory not found"


@pytest.mark.unit
@pytest.mark.parametrize("name", OURS)
def test_titles_and_hints_fill_from_every_match_example(name):
    """A `{capture}` a matching alternative does not set would render as `?` in the comment."""
    from repopilot.engine.classify import fill
    from repopilot.logs.textnorm import body, display

    for p in load_file(LIBRARY / f"{name}.yaml"):
        for ex in p.spec.examples.match:
            text = body(display(ex if isinstance(ex, str) else ex.line))
            m = next(m for r in p.regexes if (m := r.search(text)))
            caps = {k: v for k, v in m.groupdict().items() if v is not None}
            for template in (p.spec.title, p.spec.hint):
                if "?" not in template:
                    assert "?" not in fill(template, caps), (p.id, template, text)
