"""Log ingestion: every input format keeps original physical line numbers; bad input is one line."""

from __future__ import annotations

import collections
import gzip
import zipfile

import pytest

from repopilot.errors import LogError
from repopilot.logs.archive import ZipLimits
from repopilot.logs.reader import iter_lines, open_logs
from tests.engine_support import LOGS

pytestmark = pytest.mark.unit


def lines_of(path, **kw):
    (job,) = open_logs(str(path))
    return list(iter_lines(job, **kw))


def test_gha_log_strips_bom_timestamp_ansi_crlf_and_keeps_numbers():
    got = lines_of(LOGS / "pytest-gha.log")
    assert len(got) == 14
    assert got[0].text == "##[group]Run actions/checkout@v4"
    assert got[5].text == "tests/a.py::test_ok PASSED"  # ANSI removed
    assert got[9].number == 10 and got[9].text.startswith("FAILED tests/a.py::test_b")
    assert not any(line.text.endswith("\r") for line in got)
    assert got[9].step == "Run python -m pytest"


def test_gz_matches_plain():
    plain = [(x.number, x.text) for x in lines_of(LOGS / "pytest-gha.log")]
    assert [(x.number, x.text) for x in lines_of(LOGS / "pytest-gha.log.gz")] == plain


def test_ghcli_format_splits_jobs_and_keeps_physical_lines():
    jobs = open_logs(str(LOGS / "ghcli.log"))
    assert [j.name for j in jobs] == ["build", "test"]
    test = [x for x in iter_lines(jobs[1]) if x.text]
    assert test[0].number == 3  # other jobs' lines become blanks: numbering stays physical
    fail = next(x for x in test if x.text.startswith("--- FAIL"))
    assert fail.number == 5 and fail.step == "Run go test ./..."


def test_lone_cr_does_not_end_a_line(tmp_path):
    p = tmp_path / "progress.log"
    p.write_bytes(b"10%\r50%\r100%\nnext\r\nlast")
    got = lines_of(p)
    assert [x.number for x in got] == [1, 2, 3]
    assert got[1].text == "next" and got[2].text == "last"


def test_invalid_utf8_is_replaced_not_fatal(tmp_path):
    p = tmp_path / "bad.log"
    p.write_bytes(b"ok\n\xff\xfe broken \xc3\n")
    assert lines_of(p)[1].text == "\ufffd\ufffd broken \ufffd"


def test_long_line_is_cut_to_8k_and_numbering_survives(tmp_path):
    p = tmp_path / "long.log"
    p.write_bytes(b"a" * 3_000_000 + b"\nsecond\n")
    got = lines_of(p)
    assert len(got[0].text) == 8192
    assert got[1].number == 2 and got[1].text == "second"


def test_anchor_reads_from_the_middle(tmp_path):
    p = tmp_path / "many.log"
    p.write_bytes(b"".join(b"line %d\n" % i for i in range(1, 300_001)))
    (job,) = open_logs(str(p))
    from repopilot.logs.reader import iter_chunks

    chunks = [(c.offset, c.first_line) for c in iter_chunks(job)]
    assert len(chunks) > 1
    anchor = chunks[-1]
    got = list(iter_lines(job, anchor[1] + 5, anchor[1] + 6, anchor=anchor))
    assert [x.text for x in got] == [f"line {anchor[1] + 5}", f"line {anchor[1] + 6}"]


def test_run_zip_one_job_per_top_level_file_and_step_only_jobs():
    jobs = open_logs(str(LOGS / "run.zip"))
    assert [j.name for j in jobs] == ["build", "test (3.11)", "lint"]
    assert jobs[1].source.endswith("run.zip!2_test (3.11).txt")
    assert jobs[2].source.endswith("run.zip!lint/")


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty log"), (b"\x00\x01\x02\x00\x00\x00\x00\x00binary", "binary input")],
)
def test_empty_and_binary_are_reported(tmp_path, content, message):
    p = tmp_path / "x.log"
    p.write_bytes(content)
    with pytest.raises(LogError, match=message):
        open_logs(str(p))


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(LogError, match="cannot open"):
        open_logs(str(tmp_path / "nope.log"))


def test_truncated_zip(tmp_path):
    data = (LOGS / "run.zip").read_bytes()
    p = tmp_path / "cut.zip"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(LogError, match="corrupt or truncated zip"):
        open_logs(str(p))


def test_corrupt_gzip(tmp_path):
    p = tmp_path / "x.log.gz"
    p.write_bytes(gzip.compress(b"hello\n" * 1000)[:40])
    with pytest.raises(LogError, match="cannot read|truncated or corrupt"):
        (job,) = open_logs(str(p))
        list(iter_lines(job))


def _zip(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)


def test_zip_bomb_ratio_stops_while_reading(tmp_path):
    p = tmp_path / "bomb.zip"
    _zip(p, [("1_job.txt", b"x" * (64 << 20))])  # ~1000:1
    (job,) = open_logs(str(p))
    with pytest.raises(LogError, match="compression ratio"):
        list(iter_lines(job))


def test_zip_with_too_many_entries(tmp_path):
    p = tmp_path / "many.zip"
    _zip(p, [(f"{i}_job{i}.txt", b"x\n") for i in range(30)])
    with pytest.raises(LogError, match="30 zip entries"):
        open_logs(str(p), limits=ZipLimits(max_entries=20))


def test_zip_total_uncompressed_cap(tmp_path):
    p = tmp_path / "big.zip"
    _zip(p, [("1_job.txt", bytes(range(1, 256)) * 8192)])
    (job,) = open_logs(str(p), limits=ZipLimits(max_total_bytes=1 << 20))
    with pytest.raises(LogError, match="bytes uncompressed"):
        list(iter_lines(job))


def test_zip_without_logs(tmp_path):
    p = tmp_path / "empty.zip"
    _zip(p, [("readme.md", b"hi")])
    with pytest.raises(LogError, match="no job logs"):
        open_logs(str(p))


def test_gz_stream_never_materialized(tmp_path):
    # a 12 MB log read through gzip in 1 MiB chunks: every line comes out, numbered in order
    p = tmp_path / "big.log.gz"
    with gzip.open(p, "wb") as g:
        block = b"".join(b"noise %d\n" % i for i in range(100_000))
        for _ in range(10):
            g.write(block)
    (job,) = open_logs(str(p))
    (last,) = collections.deque(iter_lines(job), maxlen=1)
    assert last.number == 1_000_000 and last.text == "noise 99999"
