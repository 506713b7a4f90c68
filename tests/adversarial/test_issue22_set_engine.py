"""Issue 22, item 7: the set engine and the per-pattern reference path agree on every pattern.

A line the regex matches but the prefilter misses (`  1)x` for node.mocha.failure-header, a VT
where a needle wants a space) was a hit for the set engine and nothing for the reference path, so
a verdict depended on the log's size. `repopilot patterns lint` now refuses a prefilter its regex
does not imply (engine/library/implied.py); the differential test below runs both engines over
mutated example lines of every pattern (tests/adversarial/issue22_mutations.py) and compares hits.
Bounded: one rotation of mutations per example line plus a few hypothesis batches (~10 s)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from repopilot.engine.library.implied import generated, prefilter_problems
from repopilot.engine.library.loader import Pattern, load_library
from repopilot.engine.match.scan import Scanner
from repopilot.logs.reader import open_logs
from tests.adversarial.issue22_mutations import MUTATIONS, splice

pytestmark = pytest.mark.integration
needs_hyperscan = pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None,
    reason="hyperscan is not installed: the set engine falls back to the reference path",
)
BATCH = 400  # lines per scanned log

MOCHA_BEFORE = """\
ecosystem: node
patterns:
  - id: node.mocha.failure-header
    category: test_failure
    source: 'https://mochajs.org/#spec'
    regex: '^  (?P<n>\\d+)\\) ?(?P<test>.*)$'
    prefilter_regex: '  \\d+\\)(?:[ \\r]|(?m:$))'
    title: 'test failed: {test}'
    examples:
      match: ['  1) Array #indexOf() should return -1']
      no_match: ['    1) should return -1']
"""


@pytest.fixture(scope="module")
def library() -> list[Pattern]:
    return load_library(None)


@pytest.fixture(scope="module")
def engines(library) -> tuple[Scanner, Scanner]:
    fast = Scanner(library, engine="set", adaptive=False)
    fast.prepare()  # at once, not after the first few hundred KB
    return fast, Scanner(library, engine="reference")


def _examples(patterns: list[Pattern]) -> list[str]:
    return [e if isinstance(e, str) else e.line for p in patterns for e in p.spec.examples.match]


def _disagreements(engines: tuple[Scanner, Scanner], lines: list[str], tmp: Path) -> list:
    fast, ref = engines
    out = []
    for start in range(0, len(lines), BATCH):
        chunk = lines[start : start + BATCH]
        body = b"\n".join(s.encode("utf-8", "surrogatepass") for s in chunk) + b"\n"
        tmp.write_bytes(_HEADER + body)
        job = open_logs(str(tmp))[0]
        got = {(h.pattern.id, h.line, h.text) for h in fast.scan(job).hits}
        want = {(h.pattern.id, h.line, h.text) for h in ref.scan(job).hits}
        for pid, line, text in sorted(got ^ want):
            side = "set engine only" if (pid, line, text) in got else "reference only"
            out.append((pid, side, chunk[line - 1 - len(_HEADER)]))
    return out


# blank lines first: more than four NULs in a log's first 8 KiB would make it binary input
_HEADER = b"\n" * 8192


def test_lint_refuses_a_prefilter_its_regex_does_not_imply(tmp_path):
    lib = tmp_path / "patterns"
    lib.mkdir()
    (lib / "node.yaml").write_text(MOCHA_BEFORE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "repopilot", "patterns", "lint", "--patterns", str(lib)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    [line] = [x for x in done.stdout.splitlines() + done.stderr.splitlines() if "misses" in x]
    assert "node.mocha.failure-header: its regex matches" in line and "1)" in line
    assert "Traceback" not in done.stderr


def test_every_prefilter_in_the_library_is_implied_by_its_regex(library):
    problems = [m for p in library for m in prefilter_problems(p)]
    assert problems == []


def test_generated_lines_match_their_regex_often():
    lines = generated(r"^  (?P<n>\d+)\) ?(?P<test>.*)$", seed="x")
    assert "  0)" in lines and any(s.startswith("  9)") for s in lines)


@needs_hyperscan
def test_the_issue_lines_get_the_same_hits_from_both_engines(engines, tmp_path):
    lines = [
        "  1)x",
        "  1)test creates a user (MyApp.AccountsTest)",
        "db1 : ok=0 changed=0 \x0bunreachable=1 failed=0 skipped=0",
        "insert-mode/autoindent\x0b                            ERROR",
        "  1) Array #indexOf() should return -1",
    ]
    assert _disagreements(engines, lines, tmp_path / "issue.log") == []


@needs_hyperscan
def test_every_pattern_under_a_rotation_of_mutations(library, engines, tmp_path):
    lines = []
    for i, line in enumerate(_examples(library)):
        for k in (i, i + 11, i + 23):  # three different mutations per example line
            lines.append(MUTATIONS[k % len(MUTATIONS)][1](line).replace("\n", " "))
    assert len(lines) > 3 * 1000
    assert _disagreements(engines, lines, tmp_path / "rotation.log") == []


_EXAMPLES: list[str] = []


def _example_lines() -> list[str]:
    if not _EXAMPLES:
        _EXAMPLES.extend(_examples(load_library(None)))
    return _EXAMPLES


@st.composite
def _mutated(draw) -> str:
    pool = _example_lines()
    line = pool[draw(st.integers(0, len(pool) - 1))]
    if draw(st.booleans()):
        line = splice(line, pool[draw(st.integers(0, len(pool) - 1))])
    for k in draw(st.lists(st.integers(0, len(MUTATIONS) - 1), min_size=1, max_size=3)):
        line = MUTATIONS[k][1](line)
    return line.replace("\n", " ")


@needs_hyperscan
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the message lists the lines
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(batch=st.lists(_mutated(), min_size=100, max_size=200))
def test_mutated_and_spliced_lines_get_the_same_hits(engines, tmp_path_factory, batch):
    tmp = tmp_path_factory.mktemp("batch") / "batch.log"
    assert _disagreements(engines, batch, tmp) == []
