"""A large log streamed from a generator into `repopilot classify -`: memory stays flat, the line
numbers are right, and nothing is left behind. Not a timed test: the bound is on peak RSS, compared
with the same process on a small input (benchmarks/bench_memory.py measures 100 MB to 2 GB).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.engine_support import PATTERNS

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_memory", ROOT / "benchmarks" / "bench_memory.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def test_200_mb_through_stdin_keeps_memory_flat(tmp_path):
    small = BENCH.measure(1, workdir=tmp_path, patterns=str(PATTERNS))
    big = BENCH.measure(200, workdir=tmp_path, patterns=str(PATTERNS))
    for m in (small, big):
        assert m.exit_status == 0 and m.category == "test_failure"
    # the failing line is the second of the tail: every line before it was counted
    lines_before_tail = sum(block.count(b"\n") for block in BENCH.generate(200 * 1_000_000))
    assert big.evidence_line == lines_before_tail - 2
    assert big.bytes_fed > 200_000_000
    # 200x more input, memory within 32 MB of the small run (it is ~2 MB in practice)
    assert big.peak_rss_mb < small.peak_rss_mb + 32, (small.peak_rss_mb, big.peak_rss_mb)


def test_stdin_spool_file_is_removed(tmp_path):
    m = BENCH.measure(5, workdir=tmp_path, patterns=str(PATTERNS))
    assert m.exit_status == 0
    assert m.left_in_tmpdir_mb == 0
