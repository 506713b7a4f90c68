"""The two-process scan of a large file finds exactly what the serial scan finds."""

from __future__ import annotations

import sys

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.match.split_file import eligible, split_scan
from repopilot.logs.reader import open_logs
from tests.engine_support import PATTERNS
from tests.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from gen_log import generate  # noqa: E402

pytestmark = pytest.mark.unit


def _findings(scanner, res):
    return (
        [
            (
                h.pattern.id,
                h.line,
                h.text,
                scanner.captures(h),
                res.steps[h.step] if h.step >= 0 else None,
            )
            for h in res.hits
        ],
        res.steps,
        [(n, t) for n, _, t in res.errors],
        [(n, c) for n, _, c in res.exit_lines],
        res.lines,
        {
            res.steps[k][0] if k >= 0 else -1: [(n, t) for n, t, _ in v]
            for k, v in res.generic.items()
        },
    )


def test_split_scan_equals_serial_scan(tmp_path):
    log = tmp_path / "big.log"
    generate(str(log), 3)
    ts = "2026-01-01T00:00:00.0000000Z "
    with log.open("a") as f:  # a second failure after the generator's, at the very end
        f.write(f"{ts}##[group]Run df\n{ts}##[endgroup]\n{ts}write: No space left on device\n")
    c = Classifier(load_library(PATTERNS))
    (job,) = open_logs(str(log))
    assert job.path == str(log) and not eligible(job)  # 3 MB: serial unless asked
    serial = c.scanner.scan(job)
    split = split_scan(c.scanner, job)
    assert split is not None
    assert _findings(c.scanner, split) == _findings(c.scanner, serial)
    assert len(serial.hits) >= 2 and serial.exit_lines


def test_compressed_and_piped_logs_are_never_split(tmp_path):
    import gzip

    p = tmp_path / "x.log.gz"
    p.write_bytes(gzip.compress(b"hello\n" * 10))
    (job,) = open_logs(str(p))
    assert job.path is None and not eligible(job)
