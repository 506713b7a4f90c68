"""Seen before (issue 28, docs/MEMORY.md): the Action's side of the repository's memory.

Before the failed jobs are triaged, the memory is read once (github/seen_store.py, the last 200
records). Each failed job's signature (origin/signature.py, redacted as it is stored) is looked
up there: records of OTHER pull requests and of the default branch become the job's
`SeenBefore` (the comment's "Seen before" line, comment/seen.py), and the default branch's ones
are one more fact of the origin decision (`OriginSetup.remembered`, origin/decide.py rule 4b).
After the comment is posted (or, with no PR, summarized) this run's records are appended: one
per failed job whose verdict has a signature, decided or not, at most MAX_RUN_RECORDS per run.

Input `memory` (REPOPILOT_MEMORY) `false` turns all of it off. A memory that cannot be read or
written costs one `::warning::` line each, never the comment and never the run.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from repopilot.action import runner
from repopilot.action.memory_records import (
    RunPlace,
    job_signature,
    own_links,
    records_of,
    runs_prefix,
    stored_signature,
    tokens_of,
)
from repopilot.action.result_file import JobResult, RunResult
from repopilot.github.client import Repository
from repopilot.github.events import RunEvent
from repopilot.github.origin_setup import OriginSetup
from repopilot.github.seen_store import SeenStore, Written
from repopilot.origin.decide import Remembered
from repopilot.run_records import SeenBefore, SeenRecord, TriageResult

MAX_SEEN_PRS = 5  # other PRs a job's SeenBefore names (the comment shows three)


class Memory:
    """One run's memory: what was read, and the one warning per distinct trouble."""

    def __init__(self, repo: Repository, event: RunEvent) -> None:
        self.store = SeenStore(repo)
        self.place = RunPlace.of(event)
        self._records: tuple[SeenRecord, ...] | None = None
        self._refused = False  # the read got 403: the same token's write would too
        self._warned: set[str] = set()

    @property
    def records(self) -> tuple[SeenRecord, ...]:
        """The last 200 records, read on first use (a run with no failed job reads nothing)."""
        if self._records is None:
            loaded = self.store.read()
            prefix = runs_prefix(self.place.run_url)
            self._records = tuple(own_links(r, prefix) for r in loaded.records)
            self._refused = loaded.refused
            self._warn(loaded.warning)
        return self._records

    def _warn(self, line: str | None) -> None:
        if line and line not in self._warned:
            self._warned.add(line)
            runner.warning(line)

    def _matching(self, signature: str) -> list[SeenRecord]:
        return [r for r in self.records if r.signature == signature and self.place.other(r)]

    def recall(self, signature: str | None) -> Remembered | None:
        """The default branch's records of `signature` (unredacted, as the origin lookups have
        it) for the origin decision, or None."""
        if not signature:
            return None
        default = [r for r in self._matching(stored_signature(signature)) if r.on_default]
        if not default:
            return None
        first = default[0]
        return Remembered(first.branch, first.at, first.run_url, len(default))

    def seen(self, result: TriageResult) -> SeenBefore | None:
        """What the memory holds about this job's failure; None without a signature."""
        signature = job_signature(result)
        if signature is None:
            return None
        found = self._matching(signature)
        latest: dict[int, SeenRecord] = {}
        for r in found:
            if not r.on_default and r.pr is not None:
                latest[r.pr] = r  # oldest first: the last one of each PR stays
        prs = sorted(latest.values(), key=lambda r: r.at, reverse=True)
        default = [r for r in found if r.on_default]
        return SeenBefore(
            signature=signature,
            prs=tuple(prs[:MAX_SEEN_PRS]),
            pr_count=len(prs),
            default=tuple(dict.fromkeys([*default[:1], *default[-1:]])),
            default_runs=len({r.run_id for r in default}),
            llm_tokens=tokens_of(result),
        )

    def attach(self, found: RunResult) -> RunResult:
        """`found` with each failed job's SeenBefore."""
        jobs = [_with_seen(j, self.seen(j.result)) for j in found.jobs]
        return found.model_copy(update={"jobs": jobs})

    def remember(self, found: RunResult, pr: int | None, now: datetime | None = None) -> Written:
        """Append this run's records (one per failed job with a signature)."""
        at = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
        place = self.place if pr is None else dataclasses.replace(self.place, pr=pr)
        new = records_of(found, place, at)
        if not new or self._refused:  # one warning said it already
            return Written()
        jobs = f"{len(new)} failed job{'s' if len(new) != 1 else ''}"
        written = self.store.append(new, f"RepoPilot memory: run {found.run_id} ({jobs})")
        self._warn(written.warning)
        return written


def with_memory(setup: OriginSetup | None, memory: Memory | None) -> OriginSetup | None:
    """The origin setup whose decisions also ask the memory."""
    if setup is None or memory is None:
        return setup
    return dataclasses.replace(setup, remembered=memory.recall)


def _with_seen(job: JobResult, seen: SeenBefore | None) -> JobResult:
    if seen is None:
        return job
    return job.model_copy(update={"result": job.result.model_copy(update={"seen": seen})})
