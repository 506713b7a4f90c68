"""Several logs on several cores (engine/fanout.py): the same output as one by one (issue 11)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from repopilot.engine.fanout import classify_many
from repopilot.errors import LogError
from repopilot.safety.masks import forget_masks, registered_masks
from tests.engine_support import LOGS, cli

pytestmark = pytest.mark.integration

SECRET = "hunter2-correct-horse"


def _logs(tmp_path: Path) -> list[str]:
    """Fixture logs, a run-logs zip, and a pair where one log masks what the next one prints."""
    masks = tmp_path / "a-masks.log"
    masks.write_text(f"::add-mask::{SECRET}\nstarting\n", encoding="utf-8")
    prints = tmp_path / "b-prints.log"
    prints.write_text(
        f"Run pytest\nE   AssertionError: token {SECRET} rejected\n"
        "FAILED tests/test_a.py::test_b - AssertionError\nError: Process completed with exit "
        "code 1.\n",
        encoding="utf-8",
    )
    run = tmp_path / "run.zip"
    with zipfile.ZipFile(run, "w") as z:
        for i, log in enumerate(sorted(LOGS.glob("*.log"))[:3]):
            z.writestr(f"job {i}/1_step.txt", log.read_bytes())
    fixtures = [str(p) for p in sorted(LOGS.glob("*.log"))[:6]]
    return [str(masks), *fixtures, str(prints), str(run), str(prints)]


def test_several_processes_print_what_one_process_prints(tmp_path: Path) -> None:
    paths = _logs(tmp_path)
    one = cli("classify", "--format", "json", "--jobs", "1", *paths)
    assert one.returncode == 0, one.stderr.decode()
    for jobs in ("2", "3"):
        many = cli("classify", "--format", "json", "--jobs", jobs, *paths)
        assert many.returncode == 0, many.stderr.decode()
        assert many.stdout == one.stdout
    text_one = cli("classify", "--jobs", "1", *paths).stdout
    assert cli("classify", "--jobs", "2", *paths).stdout == text_one
    # the log printed after the one that masks it is redacted, whichever process read it
    assert SECRET.encode() not in one.stdout


def test_the_first_unreadable_log_stops_the_run_as_it_does_one_by_one(tmp_path: Path) -> None:
    good = sorted(LOGS.glob("*.log"))[:4]
    paths = [str(good[0]), str(tmp_path / "missing.log"), str(good[1]), str(good[2])]
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    for order in (paths, [str(good[0]), str(good[1]), str(bad), str(tmp_path / "missing.log")]):
        one = cli("classify", "--jobs", "1", *order)
        many = cli("classify", "--jobs", "3", *order)
        assert one.returncode != 0
        assert (many.returncode, many.stdout, many.stderr) == (
            one.returncode,
            one.stdout,
            one.stderr,
        )


def test_jobs_must_be_a_whole_number() -> None:
    res = cli("classify", "--jobs", "0", str(sorted(LOGS.glob("*.log"))[0]))
    assert res.returncode == 2
    assert b"--jobs" in res.stderr and b"at least 1" in res.stderr


def test_the_logs_are_shared_between_processes_and_come_back_in_order() -> None:
    import time

    def classify(p: str) -> list:
        time.sleep(0.1)  # long enough that every process takes some
        return [(p, os.getpid())]

    got = classify_many(classify, [f"log{i}" for i in range(9)], jobs=3)
    assert [p for p, _ in got] == [f"log{i}" for i in range(9)]
    assert len({pid for _, pid in got}) == 3


def test_every_log_is_taken_once_largest_first(tmp_path: Path) -> None:
    from repopilot.engine.fanout import _Queue

    paths = []
    for i, size in enumerate([10, 900, 50, 300]):
        p = tmp_path / f"{i}.log"
        p.write_bytes(b"x" * size)
        paths.append(str(p))
    queue = _Queue([*paths, str(tmp_path / "missing.log")])
    assert list(queue) == [1, 3, 2, 0, 4]
    assert list(queue) == []
    queue.close()


def test_a_log_read_without_a_mask_an_earlier_log_registered_is_read_again() -> None:
    """Whichever process read log 1 never saw log 0's value: the parent reads log 1 again."""
    import time

    forget_masks()
    calls: list[tuple[str, int, frozenset[str]]] = []

    def classify(path: str) -> list:
        from repopilot.safety.masks import remember_masks

        if path == "log0":  # slow: the other process takes log1, without the mask
            time.sleep(0.3)
            remember_masks("::add-mask::s3cr3t-value")
        calls.append((path, os.getpid(), registered_masks()))
        return [(path, os.getpid(), "s3cr3t-value" in registered_masks())]

    try:
        got = classify_many(classify, ["log0", "log1", "log2"], jobs=2)
    finally:
        forget_masks()
    # log1 went to the worker, which had no mask: the parent did it again, with the mask
    assert [(p, seen) for p, _, seen in got] == [("log0", True), ("log1", True), ("log2", True)]
    assert ("log1", os.getpid()) in [(p, pid) for p, pid, _ in calls]


def test_an_input_error_in_a_worker_is_raised_at_its_place() -> None:
    def classify(path: str) -> list:
        if path == "bad":
            raise LogError(f"{path}: cannot read")
        return [path]

    with pytest.raises(LogError, match="bad: cannot read"):
        classify_many(classify, ["ok0", "bad", "ok2", "ok3"], jobs=2)
    assert classify_many(classify, ["ok0", "ok1"], jobs=2) == ["ok0", "ok1"]


def test_a_few_small_logs_are_classified_in_one_process_by_default() -> None:
    """Under FAN_OUT_MIN bytes the default is one process (no fork, no set engine built for
    them); asked for, --jobs still shares them out."""
    import importlib.util

    from repopilot.commands.classify import classify_all, load_classifier

    small = [str(p) for p in sorted(LOGS.glob("*.log"))[:3]]
    quiet = load_classifier(None)
    one = classify_all(quiet, small)
    assert quiet.scanner.sets is None  # nothing prepared a set engine for a fork
    asked = load_classifier(None)
    many = classify_all(asked, small, jobs=2)
    assert [v.contract() for v in many] == [v.contract() for v in one]
    if importlib.util.find_spec("hyperscan") is not None:
        assert asked.scanner.sets is not None  # built once, before the workers forked
