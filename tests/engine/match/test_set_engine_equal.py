"""The set engine finds exactly what the per-pattern reference path finds (issue 11).

Same ScanResult (hits with their captures, steps, generic lines, ##[error] lines, exit codes,
markers, line count) and same verdicts, on the tests' own fixture logs and on every log of
../shared/corpus, with the library as it is in patterns/ today (new patterns included).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.match.scan import Scanner
from repopilot.engine.match.scan_result import ScanResult
from repopilot.errors import InputError
from repopilot.logs.reader import JobLog, open_logs
from tests.engine_support import PATTERNS, ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
needs_hyperscan = pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None,
    reason="hyperscan is not installed: the set engine falls back to the reference path",
)


def findings(scanner: Scanner, res: ScanResult) -> tuple:
    """(Captures as a verdict reads them: the set engine leaves RE2-decided ones to then.)"""
    return (
        res.steps,
        [(h.pattern.id, h.line, h.text, scanner.captures(h), h.step, h.anchor) for h in res.hits],
        {k: list(v) for k, v in res.generic.items()},
        res.errors,
        res.exit_lines,
        res.success_marker,
        res.failure_marker,
        res.lines,
    )


class ScanOnce(Scanner):
    """A scanner that scans each job once for `compare`: the classify that follows `compare`'s
    own scan of the same job gets that result. No path keeps anything from one log to the next
    (regex timeouts are counted in the ScanResult; the adaptive set engine's quiet measure starts
    again at each log's offset 0), so a second scan could only repeat the first. A scan of
    another job scans again."""

    def __init__(self, patterns, **kw) -> None:
        super().__init__(patterns, **kw)
        self.last: tuple[JobLog, ScanResult] | None = None

    def scan(self, job: JobLog) -> ScanResult:
        if self.last is not None and self.last[0] is job:
            res, self.last = self.last[1], None
            return res
        res = super().scan(job)
        self.last = (job, res)
        return res


def engines(patterns_dir: Path | None) -> tuple[Classifier, Classifier]:
    patterns = load_library(patterns_dir)
    fast = Classifier(patterns)
    fast.scanner = ScanOnce(patterns, engine="set", adaptive=False)
    fast.scanner.prepare()  # at once, not after the first few MB
    assert fast.scanner.sets is not None
    ref = Classifier(patterns)
    ref.scanner = ScanOnce(patterns, engine="reference")
    return fast, ref


def compare(fast: Classifier, ref: Classifier, paths: list[Path]) -> int:
    """Assert equal findings and verdicts for every job; the number of jobs compared."""
    jobs = 0
    for path in paths:
        try:
            logs = open_logs(str(path))
        except InputError:
            continue  # a fixture of a bad input: nothing to scan
        for job in logs:
            want = findings(ref.scanner, ref.scanner.scan(job))
            got = findings(fast.scanner, fast.scanner.scan(job))
            assert got == want, f"{path} ({job.name}): the set engine differs"
            assert fast.classify(job).contract() == ref.classify(job).contract(), str(path)
            jobs += 1
    return jobs


def fixture_logs() -> list[Path]:
    root = ROOT / "tests" / "fixtures"
    return sorted(p for p in root.rglob("*") if p.suffix in (".log", ".gz", ".zip", ".txt"))


@needs_hyperscan
@pytest.mark.unit
def test_same_findings_on_the_fixture_logs_with_the_fixture_library():
    assert compare(*engines(PATTERNS), fixture_logs()) >= 8


@needs_hyperscan
@pytest.mark.unit
def test_same_findings_on_the_fixture_logs_with_the_full_library():
    assert compare(*engines(None), fixture_logs()) >= 8


@needs_hyperscan
@pytest.mark.unit
def test_same_findings_where_raw_lines_and_matchable_text_differ(tmp_path):
    """Timestamps, markers, CR progress lines, BuildKit prefixes, leftover escapes, non-ASCII
    text, an over-long line, a header echo, generic lines beyond the 48 kept per step."""
    ts = "2026-01-01T00:00:00.0000000Z "
    lines = [f"{ts}##[group]Run make test", f"{ts}make test", f"{ts}##[endgroup]"]
    lines += [f"{ts}error-ex {i} error-like noise" for i in range(120)]
    lines += [
        f"{ts}##[error]npm error code ERESOLVE",
        f"{ts}downloading 10%\rdownloading 100%\rE   AssertionError: assert 1 == 2",
        f"{ts}#12 3.456 ERROR: failed to solve: process did not complete successfully",
        f"{ts}err\x1b(Bor: café \u2716 tests failed",
        f"{ts}Ｅrror: ünïcode ￥ failed " + "x" * 9000 + " error: tail",
        f"{ts}FAILED tests/test_x.py::test_y - AssertionError: boom",
        f"{ts}##[error]Process completed with exit code 1.",
    ]
    log = tmp_path / "odd.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plain = tmp_path / "plain.log"
    plain.write_text("\n".join(line[len(ts) :] for line in lines), encoding="utf-8")
    assert compare(*engines(None), [log, plain]) == 2


SHARDS = 4  # the corpus in quarters, so xdist runs them on both workers


@needs_hyperscan
@pytest.mark.corpus
@pytest.mark.parametrize("shard", range(SHARDS))
def test_same_findings_and_verdicts_on_the_whole_shared_corpus(shard: int):
    """Every SHARDS-th log from `shard`; together the shards compare every log (>= 500 jobs)."""
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus is not present (looked at {CORPUS})")
    logs = sorted(CORPUS.rglob("*.log"))
    assert compare(*engines(None), logs[shard::SHARDS]) >= 500 // SHARDS
