"""The "far" rule of engine/verdict/survived.py never takes a crash, an out-of-memory kill or a
timeout for an error the job survived: the program that printed it ended there, and what follows
(Go's goroutine dump, the runner's `FAIL pkg`) reports it. Logs written for the test from the Go
testing package's documented output (`-timeout`: "panic: test timed out after ..., running
tests:", then every goroutine's stack), none copied from a corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.survived import FAR

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def goroutines(count: int) -> list[str]:
    out: list[str] = []
    for g in range(1, count + 1):
        out += [
            f"goroutine {g} [chan receive, 9 minutes]:",
            "example.com/widget/sync.(*Loop).wait(0xc000123000)",
            "\t/home/runner/work/widget/widget/sync/loop.go:88 +0x1c5",
            "example.com/widget/sync.TestSyncLoop(0xc0001a2000)",
            "\t/home/runner/work/widget/widget/sync/loop_test.go:42 +0x65",
            "testing.tRunner(0xc0001a2000, 0x6d2f10)",
            "\t/opt/hostedtoolcache/go/1.23.0/x64/src/testing/testing.go:1690 +0xf4",
            "created by testing.(*T).Run in goroutine 1",
            "",
        ]
    return out


def go_test_log(tmp_path: Path, head: list[str], dump: int) -> Path:
    lines = [
        "##[group]Run go test ./...",
        "go test ./...",
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        "=== RUN   TestSyncLoop",
        *head,
        *goroutines(dump),
        "FAIL\texample.com/widget/sync\t600.041s",
        "ok  \texample.com/widget/api\t1.204s",
        "FAIL",
        "##[error]Process completed with exit code 1.",
    ]
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("head", "category"),
    [
        (
            ["panic: test timed out after 10m0s", "running tests:", "\tTestSyncLoop (10m0s)", ""],
            "timeout_cancelled",
        ),
        (
            [
                "panic: runtime error: invalid memory address or nil pointer dereference",
                "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4f2a1c]",
                "",
            ],
            "crash_segfault",
        ),
    ],
)
def test_a_go_test_panic_before_a_long_goroutine_dump_stays_the_cause(
    engine, tmp_path, head, category
):
    short = engine.classify_path(go_test_log(tmp_path, head, 10))[0]
    assert short.category == category  # the same log with a short dump: the panic decides
    log = go_test_log(tmp_path, head, 140)  # 140 goroutines: the panic is > FAR lines up
    assert len(log.read_text().splitlines()) > FAR + 20
    (v,) = engine.classify_path(log)
    assert v.category == category, (v.category, v.evidence)
    assert v.evidence[0].text == head[0]
