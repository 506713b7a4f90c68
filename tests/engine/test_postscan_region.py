"""Lines read again after the scan (engine/verdict/region.py): the same lines, from any anchor, capped."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.match.split_file import split_scan
from repopilot.engine.verdict.job_end import last_nonblank
from repopilot.engine.verdict.region import Region, read_raw
from repopilot.logs.reader import iter_chunks, open_logs
from repopilot.logs.textnorm import MAX_LINE, display
from repopilot.safety.masks import forget_masks, registered_masks
from tests.engine_support import PATTERNS
from tests.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from gen_log import generate  # noqa: E402

pytestmark = pytest.mark.unit

TS = "2026-01-01T00:00:00.0000000Z "


def _anchors(job) -> list[tuple[int, int]]:
    return [(c.offset, c.first_line) for c in iter_chunks(job, gha_steps=False)]


def _log(tmp_path: Path, lines: list[bytes], end: bytes = b"\n") -> Path:
    p = tmp_path / "job.log"
    p.write_bytes(b"\n".join(lines) + end)
    return p


def test_read_raw_equals_the_files_lines_from_every_anchor(tmp_path):
    rng = random.Random(7)
    lines = [
        (f"{TS}line {i} " + "x" * rng.randrange(0, 300)).encode() + b"\r" * (i % 5 == 0)
        for i in range(1, 12_001)
    ]
    for end in (b"\n", b""):  # with and without the last LF
        (job,) = open_logs(str(_log(tmp_path, lines, end)))
        anchors = _anchors(job)
        assert len(anchors) >= 2  # several 1 MiB chunks
        for _ in range(60):
            anchor = rng.choice(anchors + [None])
            top = anchor[1] if anchor else 1
            lo = rng.randrange(top, 12_050)
            hi = lo + rng.randrange(0, 700)
            got, eof = read_raw(job, lo, hi, anchor)
            assert got == lines[lo - 1 : hi], (anchor, lo, hi)
            assert eof == (hi > len(lines))
            # knowing the last line's number, the last chunk may be split from its end
            assert read_raw(job, lo, hi, anchor, last=len(lines)) == (got, eof), (anchor, lo, hi)


def test_a_long_line_is_kept_capped_with_its_text_and_colour(tmp_path):
    long_red = b"head " + b"y" * (3 * MAX_LINE) + b"\x1b[31mred at the end\x1b[0m"
    lines = [b"one", long_red, b"three"]
    (job,) = open_logs(str(_log(tmp_path, lines)))
    raws, _ = read_raw(job, 1, 3, None)
    assert max(len(r) for r in raws) <= MAX_LINE + 8
    [one, two, three] = Region(job, ScanResult()).lines(1, 3, None)
    assert two.text == display(long_red) and two.red
    assert (one.text, one.red, three.text) == ("one", False, "three")


def test_context_far_past_the_first_mib_is_the_same_lines(tmp_path, classifier):
    filler = [f"{TS}building module {i} of the project" for i in range(60_000)]
    tail = [
        f"{TS}##[group]Run npm test",
        f"{TS}##[endgroup]",
        f"{TS}compiling",
        f"{TS}npm ERR! code ELIFECYCLE",
        f"{TS}src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
        f"{TS}after one",
        f"{TS}after two",
        f"{TS}after three",
        f"{TS}##[error]Process completed with exit code 2.",
    ]
    text = "\n".join(filler + tail) + "\n"
    path = tmp_path / "far.log"
    path.write_text(text)
    assert path.stat().st_size > 3 << 20
    [v] = classifier.classify_path(path)
    assert v.pattern_id and v.context  # a pattern's verdict (a guess, in a log this long: issue 27)
    by_number = {n: display(raw) for n, raw in enumerate(text.encode().split(b"\n"), 1)}
    for e in v.context:
        assert e.text == by_number[e.line]
    numbers = [e.line for e in v.context]
    assert numbers == list(range(numbers[0], numbers[-1] + 1))
    assert any(e.line == v.evidence[0].line for e in v.context)
    assert numbers[0] > 60_000


def test_region_window_stays_bounded(tmp_path):
    (job,) = open_logs(str(_log(tmp_path, [b"l%d" % i for i in range(20_000)])))
    region = Region(job, ScanResult(), margin=(50, 200))
    got = region.lines(10_000, 10_600, None)
    assert [ln.number for ln in got] == list(range(10_000, 10_601))
    assert len(region._raws) <= 601 + 250  # the request and its margin, never the log
    wide = region.lines(1, 19_000, None)  # wider than MAX_WINDOW with its margin: no margin
    assert len(wide) == 19_000 and len(region._raws) == 19_000


def test_a_split_scan_hands_the_second_halfs_masks_to_the_parent(tmp_path):
    log = tmp_path / "big.log"
    generate(str(log), 3)
    with log.open("a") as f:
        f.write(f"{TS}::add-mask::Vq8rTz3pLm1x\n{TS}done\n")
    forget_masks()
    c = Classifier(load_library(PATTERNS))
    (job,) = open_logs(str(log))
    assert split_scan(c.scanner, job) is not None
    assert "Vq8rTz3pLm1x" in registered_masks()
    forget_masks()


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([b"", b"  ", b"x", b"\r", b"job line", b"\t"]), max_size=120),
    st.integers(min_value=1, max_value=50),
)
def test_last_nonblank_equals_the_whole_split(lines, n):
    data = b"\n".join(lines)
    assert last_nonblank(data, n) == [ln for ln in data.split(b"\n") if ln.strip()][-n:]


def test_a_zip_member_past_its_first_mib_reads_its_context(tmp_path, classifier):
    import zipfile

    lines = [f"{TS}building module {i} of the project" for i in range(60_000)]
    lines += [f"{TS}ERROR: Could not find a version that satisfies the requirement nope==9"]
    lines += [f"{TS}##[error]Process completed with exit code 1."]
    text = "\n".join(lines) + "\n"
    plain = tmp_path / "job.txt"
    plain.write_text(text)
    run = tmp_path / "run.zip"
    with zipfile.ZipFile(run, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("build/1_Run pip.txt", text)  # a member stream cannot seek
    [from_zip] = classifier.classify_path(run)
    [from_file] = classifier.classify_path(plain)
    assert from_zip.context and from_zip.context == from_file.context
    assert from_zip.evidence == from_file.evidence and from_zip.evidence[0].line > 60_000
