"""A `gh run view --log` file split into jobs in one pass (logs/gh_split.py) reads as reading the
whole file once per job did (the reader's own per-line rewrite, still its path for a gh file
without a gh line): the same lines, numbers and steps per job, the same verdicts, on the fixtures
and on shapes the fixtures lack (interleaved jobs, continuation lines, BOMs, a step name coming
back, an unterminated last line, chunks of more than one read)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.logs import reader
from repopilot.logs.reader import JobLog, iter_chunks, iter_lines, open_logs
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GH_FIXTURES = [
    FIXTURES / "engine" / "logs" / "ghcli.log",
    FIXTURES / "shapes" / "ghcli-multijob.log",
    FIXTURES / "shapes" / "ghcli-unknown-step-bun.log",
    FIXTURES / "shapes" / "ghcli-unknown-step-node-test.log",
    FIXTURES / "shapes" / "ghcli-unknown-step-npm.log",
    FIXTURES / "shapes" / "ghcli-unknown-step-pytest.log",
]
TS = "2026-01-01T10:00:00.0000000Z"


def _whole_file_reads(path: Path, jobs: list[JobLog]) -> list[JobLog]:
    """Each job as the reader read it before the split: the whole file, other jobs' lines blank."""
    opener = reader._file_opener(str(path))
    if len(jobs) == 1:
        return [JobLog(jobs[0].source, jobs[0].name, opener, "ghcli", path=jobs[0].path)]
    return [JobLog(j.source, j.name, opener, "ghcli", job_filter=j.name) for j in jobs]


def _read(job: JobLog) -> tuple[list, list, int]:
    lines = [(ln.number, ln.text, ln.step) for ln in iter_lines(job)]
    chunks = list(iter_chunks(job, gha_steps=False))
    steps = [s for c in chunks for s in c.steps]
    last = chunks[-1].first_line + chunks[-1].data.count(b"\n") if chunks else 0
    return lines, steps, last


def _same_reads(path: Path) -> list[JobLog]:
    jobs = open_logs(str(path))
    assert all(j.gh is not None for j in jobs), "a gh file is split"
    for split, whole in zip(jobs, _whole_file_reads(path, jobs), strict=True):
        assert (split.source, split.name) == (whole.source, whole.name)
        assert _read(split) == _read(whole), split.source
    return jobs


@pytest.mark.parametrize("path", GH_FIXTURES, ids=lambda p: p.name)
def test_the_fixtures_read_and_classify_as_before(path: Path):
    jobs = _same_reads(path)
    classifier = Classifier()
    for split, whole in zip(jobs, _whole_file_reads(path, jobs), strict=True):
        got, want = classifier.classify(split), classifier.classify(whole)
        assert got == want
        assert [e.line for e in got.evidence] == [e.line for e in want.evidence]


def _gh(job: str, step: str, text: str) -> str:
    return f"{job}\t{step}\t{TS} {text}"


SHAPES = {
    "interleaved": "\n".join(
        [
            _gh("a", "Set up job", "hello"),
            _gh("b", "Set up job", "other"),
            _gh("a", "Set up job", "again"),
            _gh("a", "Run tests", "FAILED tests/test_x.py::test_y - AssertionError"),
            _gh("b", "Run build", "error: something"),
            _gh("a", "Set up job", "the first step's name comes back"),
            _gh("a", "Run tests", "##[error]Process completed with exit code 1."),
        ]
    )
    + "\n",
    "continuations": "\n".join(
        [
            "a line before any gh line",
            _gh("a", "s1", "first"),
            "a continuation of a",
            _gh("b", "s1", "b's"),
            "a continuation of b",
            "\ufeffanother",
            _gh("a", "s2", "error: boom"),
            *(_gh("b", "s2", f"more {i}") for i in range(6)),  # (mostly gh lines: sniffed as gh)
        ]
    )
    + "\n",
    "bom-columns": "\ufeff"
    + _gh("a", "s", "x")
    + "\n"
    + "a\ts\t\ufeff"
    + TS
    + " y\n"
    + _gh("b", "s", "z")
    + "\n",
    "unterminated-other": _gh("a", "s", "x") + "\n" + _gh("b", "s", "last, no LF"),
    "unterminated-own": _gh("b", "s", "x") + "\n" + _gh("a", "s", "y") + "\n" + _gh("a", "s", "z"),
    "one-job": _gh("only", "s1", "x") + "\n" + "cont\n" + _gh("only", "s2", "error: y") + "\n",
    "empty-columns": _gh("", "", "x") + "\n" + _gh("\x00", "", "y"),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_read_as_before(tmp_path: Path, name: str):
    path = tmp_path / "run.log"
    path.write_bytes(SHAPES[name].encode("utf-8"))
    _same_reads(path)


def test_many_chunks_and_many_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # Small reads: runs of one job and one step cross chunk boundaries (as 1 MiB reads do).
    lines = []
    for k in range(7):
        for i in range(300):
            step = f"Run step {i // 70}"
            lines.append(_gh(f"job {k}", step, f"line {i} of {k}" + (" error" if i % 97 else "")))
            if i % 50 == 0:
                lines.append(f"continuation {i}")
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(reader, "CHUNK", 4096)
    jobs = _same_reads(path)
    assert len(jobs) == 7 and all(len(j.gh.steps) == 5 for j in jobs)  # type: ignore[union-attr]


def test_a_gzipped_gh_file_is_split_too(tmp_path: Path):
    path = tmp_path / "run.log.gz"
    path.write_bytes(gzip.compress(SHAPES["interleaved"].encode()))
    jobs = open_logs(str(path))
    assert [j.name for j in jobs] == ["a", "b"]
    plain = tmp_path / "run.log"
    plain.write_text(SHAPES["interleaved"], encoding="utf-8")
    for got, want in zip(jobs, open_logs(str(plain)), strict=True):
        assert _read(got) == _read(want)
