"""A gh file's jobs without the other jobs' lines (logs/gh_split.py `LineRun`), and the file split
in pieces joined into the same jobs (logs/gh_pieces.py): the spools hold each job's own bytes,
not a blank line for every line of the file; line numbers, steps, masks and verdicts are those
of the one pass over the whole file."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.logs.gh_pieces import Joined, bounds, joined
from repopilot.logs.gh_split import GHCLI_AT, spool_dir
from repopilot.logs.reader import JobLog, gh_piece, iter_chunks, open_logs
from repopilot.safety.masks import forget_masks, registered_masks
from tests.logs.test_gh_split import (
    GH_FIXTURES,
    SHAPES,
    TS,
    _gh,
    _read,
    _same_reads,
    _whole_file_reads,
)

pytestmark = pytest.mark.unit


def _cuts_at_every_gh_line(path: Path) -> list[tuple[int, int]]:
    """Byte ranges of `path`, a new one at each gh line after the first line: the most cuts."""
    data = path.read_bytes()
    cuts, pos = [0], data.find(b"\n") + 1
    while 0 < pos < len(data):
        if GHCLI_AT.match(data, pos):
            cuts.append(pos)
        pos = data.find(b"\n", pos) + 1
    return list(zip(cuts, [*cuts[1:], len(data)], strict=True))


def _joined(path: Path, ranges: list[tuple[int, int]]) -> Joined | None:
    where = spool_dir()
    pieces = [gh_piece(str(path), where, f"p{k}-", at) for k, at in enumerate(ranges)]
    assert all(p is not None for p in pieces)
    return joined([p for p in pieces if p is not None], where)


def _same_jobs(path: Path, ranges: list[tuple[int, int]]) -> list[JobLog]:
    one = open_logs(str(path))
    got = open_logs(str(path), joined=_joined(path, ranges))
    assert [(j.source, j.name) for j in got] == [(j.source, j.name) for j in one]
    for a, b in zip(got, one, strict=True):
        assert a.gh is not None and b.gh is not None
        assert (a.gh.steps, a.gh.runs, a.gh.newlines, a.gh.blank_tail) == (
            b.gh.steps,
            b.gh.runs,
            b.gh.newlines,
            b.gh.blank_tail,
        ), a.source
        assert filecmp.cmp(a.gh.spool, b.gh.spool, shallow=False), a.source
        assert _read(a) == _read(b)
    return got


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_cut_at_every_gh_line_join_into_the_one_pass_jobs(tmp_path: Path, name: str):
    path = tmp_path / "run.log"
    path.write_bytes(SHAPES[name].encode("utf-8"))
    ranges = _cuts_at_every_gh_line(path)
    _same_jobs(path, ranges)
    for pieces in (2, 3):
        _same_jobs(path, bounds(str(path), pieces))


@pytest.mark.parametrize("path", GH_FIXTURES, ids=lambda p: p.name)
def test_fixtures_in_pieces_classify_as_the_one_pass(path: Path):
    classifier = Classifier()
    one = open_logs(str(path))
    for ranges in (_cuts_at_every_gh_line(path), bounds(str(path), 3)):
        got = _same_jobs(path, ranges)
        for a, b in zip(got, one, strict=True):
            assert classifier.classify(a) == classifier.classify(b)


def test_a_step_going_on_across_a_cut_is_not_started_twice(tmp_path: Path):
    lines = [_gh("a", "Run tests", f"line {i}") for i in range(40)]
    lines += [_gh("b", "Run tests", f"b {i}") for i in range(5)]
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _same_jobs(path, _cuts_at_every_gh_line(path))
    assert got[0].gh is not None and got[0].gh.steps == ((1, "Run tests"),)
    assert got[0].gh.runs[0].line == 1 and len(got[0].gh.runs) == 1


def test_masks_of_every_piece_are_registered_in_file_order(tmp_path: Path):
    lines = []
    for k in range(4):
        lines.append(_gh(f"job {k}", "s", f"::add-mask::secret-value-{k}-xyz"))
        lines += [_gh(f"job {k}", "s", f"uses secret-value-{k}-xyz") for _ in range(3)]
    path = tmp_path / "run.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    forget_masks()
    open_logs(str(path))
    one = registered_masks()
    forget_masks()
    got = _joined(path, _cuts_at_every_gh_line(path))
    assert got is not None and len(got.masks) == 4
    assert [m.split("::")[-1] for m in got.masks] == [f"secret-value-{k}-xyz" for k in range(4)]
    assert registered_masks() == frozenset()  # (a piece carries them; opening registers them)
    open_logs(str(path), joined=got)
    assert registered_masks() == one and len(one) == 4
    forget_masks()


def _many_jobs(tmp_path: Path, jobs: int = 20, lines: int = 200) -> tuple[Path, list[list[str]]]:
    """`jobs` pytest jobs of `lines` lines, one after the other; each fails on line lines-2."""
    own: list[list[str]] = []
    rows = []
    for k in range(jobs):
        texts = [f"{TS} job {k} line {i}" for i in range(lines - 2)]
        texts += [
            f"{TS} FAILED tests/test_{k}.py::test_y - AssertionError: job {k}",
            f"{TS} ##[error]Process completed with exit code 1.",
        ]
        own.append(texts)
        rows += [f"build ({k})\tRun pytest\t{t}" for t in texts]
    path = tmp_path / "run.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path, own


def test_a_spool_holds_its_own_jobs_bytes_not_every_line_of_the_file(tmp_path: Path):
    path, own = _many_jobs(tmp_path)
    jobs = open_logs(str(path))
    assert len(jobs) == 20
    for job, texts in zip(jobs, own, strict=True):
        assert job.gh is not None
        spool = Path(job.gh.spool).read_bytes()
        assert spool == ("\n".join(texts) + "\n").encode()  # no blank line of another job
        # what the scan reads: its own lines, then one blank line that says where the view ends
        chunks = list(iter_chunks(job, gha_steps=False, blanks=False))
        assert sum(len(c.data) for c in chunks) <= len(spool) + 1
        assert chunks[0].first_line == 1 + 200 * jobs.index(job)
    total = sum(Path(j.gh.spool).stat().st_size for j in jobs if j.gh is not None)
    assert total < path.stat().st_size


def test_evidence_lines_are_the_gh_files_physical_lines(tmp_path: Path):
    path, _ = _many_jobs(tmp_path)
    physical = path.read_text(encoding="utf-8").split("\n")
    classifier = Classifier()
    jobs = open_logs(str(path))
    whole = _whole_file_reads(path, jobs)
    for k, (job, before) in enumerate(zip(jobs, whole, strict=True)):
        v = classifier.classify(job)
        assert v == classifier.classify(before)  # as reading the whole file for each job did
        assert v.evidence, job.source
        for e in v.evidence:
            assert physical[e.line - 1].startswith(f"build ({k})\t")
            assert physical[e.line - 1].endswith(e.text), (e.line, e.text)
        for e in v.context:  # its own lines, and the next job's as blank lines (as before)
            mine = physical[e.line - 1].startswith(f"build ({k})\t")
            assert physical[e.line - 1].endswith(e.text) if mine else e.text == "", e.line
        assert v.evidence[0].line == 200 * k + 199


@pytest.mark.parametrize("name", ["interleaved", "continuations", "unterminated-other"])
def test_shapes_classify_as_the_whole_file_read(tmp_path: Path, name: str):
    path = tmp_path / "run.log"
    path.write_bytes(SHAPES[name].encode("utf-8"))
    classifier = Classifier()
    jobs = open_logs(str(path))
    for split, whole in zip(jobs, _whole_file_reads(path, jobs), strict=True):
        got, want = classifier.classify(split), classifier.classify(whole)
        assert got == want
        assert [(e.line, e.text) for e in got.context] == [(e.line, e.text) for e in want.context]


def test_a_line_with_the_columns_but_no_timestamp_continues_the_job_as_it_is(tmp_path: Path):
    text = "\n".join(
        [
            _gh("a", "s", "one"),
            "a\ts\tno timestamp: not a gh line",
            _gh("a", "s", "two"),
            _gh("b", "s", "three"),
            "b\ts\t",
            _gh("a", "s", "error: four"),
        ]
    )
    path = tmp_path / "run.log"
    path.write_text(text + "\n", encoding="utf-8")
    _same_reads(path)
    jobs = _same_jobs(path, _cuts_at_every_gh_line(path))
    assert jobs[0].gh is not None
    assert b"a\ts\tno timestamp" in Path(jobs[0].gh.spool).read_bytes()
