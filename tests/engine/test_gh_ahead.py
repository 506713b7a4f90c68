"""Large gh files split in pieces by forked processes before the library loads
(engine/gh_ahead.py): the jobs, spools, steps, verdicts and masks of the one pass (issue 19)."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from repopilot.engine import gh_ahead
from repopilot.engine.classify import Classifier
from repopilot.engine.fanout import classify_jobs
from repopilot.logs.reader import open_logs
from repopilot.safety.masks import forget_masks, registered_masks

pytestmark = pytest.mark.integration

TS = "2024-05-01T10:00:00.0000000Z"


def _gh_file(path: Path, jobs: int = 9, lines: int = 120) -> Path:
    rows = []
    for k in range(jobs):
        name = f"test ({k})"
        body = [f"::add-mask::secret-{k}-abcdef"] if k % 4 == 1 else []
        body += ["##[group]Run pytest", "##[endgroup]"]
        body += [f"collecting {i} uses secret-{k}-abcdef" for i in range(lines)]
        body += [
            f"FAILED tests/test_{k}.py::test_b - AssertionError: secret-{k}-abcdef",
            "##[error]Process completed with exit code 1.",
        ]
        rows += [
            f"{name}\t{'Set up job' if i < 1 else 'Run pytest'}\t{TS} {t}"
            for i, t in enumerate(body)
        ]
        if k == 4:
            rows.append("a continuation line without columns")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("pieces", [2, 3, 5])
def test_a_gh_file_split_ahead_opens_as_the_one_pass(tmp_path: Path, pieces: int):
    path = str(_gh_file(tmp_path / "run.log"))
    forget_masks()
    one = open_logs(path)
    masks = registered_masks()
    forget_masks()
    ahead = gh_ahead.start([path], pieces, min_bytes=0)
    assert list(ahead.pending) == [path] and len(ahead.pending[path].children) == pieces
    got = open_logs(path, joined=ahead.take(path))
    assert registered_masks() == masks and len(masks) == 2
    assert [j.source for j in got] == [j.source for j in one]
    for a, b in zip(got, one, strict=True):
        assert a.gh is not None and b.gh is not None
        assert (a.gh.steps, a.gh.runs, a.gh.newlines) == (b.gh.steps, b.gh.runs, b.gh.newlines)
        assert filecmp.cmp(a.gh.spool, b.gh.spool, shallow=False)
    forget_masks()


def test_jobs_classified_on_two_processes_after_a_split_ahead_are_the_one_process_verdicts(
    tmp_path: Path,
):
    path = str(_gh_file(tmp_path / "run.log"))
    classifier = Classifier()
    forget_masks()
    want = [classifier.classify(j) for j in open_logs(path)]
    forget_masks()
    ahead = gh_ahead.start([path], 2, min_bytes=0)
    got = classify_jobs(classifier.classify, [path], 2, ahead)
    assert got == want
    assert all("secret-1-abcdef" not in e.text for v in got for e in v.evidence)
    forget_masks()


def test_small_plain_or_compressed_files_and_one_process_are_left_to_the_one_pass(tmp_path: Path):
    path = _gh_file(tmp_path / "run.log")
    plain = tmp_path / "plain.log"
    plain.write_text("just a plain log\n" * 100, encoding="utf-8")
    assert not gh_ahead.start([str(path)], 2).pending  # under MIN_BYTES
    assert not gh_ahead.start([str(path)], 1, min_bytes=0).pending
    assert not gh_ahead.start([str(plain), "-"], 2, min_bytes=0).pending
