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
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from repopilot.action import runner
from repopilot.action.result_file import JobResult, RunResult
from repopilot.errors import TraceError
from repopilot.github.client import Repository
from repopilot.github.events import RunEvent
from repopilot.github.origin_setup import OriginSetup
from repopilot.github.seen_store import SeenStore, Written
from repopilot.origin.decide import Remembered
from repopilot.origin.signature import signature_text
from repopilot.run_records import SeenBefore, SeenRecord, TriageResult
from repopilot.safety.redact import clean_for_model
from repopilot.trace import load as load_trace

MAX_SEEN_PRS = 5  # other PRs a job's SeenBefore names (the comment shows three)
MAX_RUN_RECORDS = 20  # records one run adds (a tenth of what a reader uses: records_of)
_LIMIT = 600  # characters of a stored signature; a longer one keeps its start
_RUN_TAIL = re.compile(r"[0-9]+(?:/attempts/[0-9]+)?")  # what follows the runs prefix
# What starts a run of the default branch's own code by its writers or a clock. Others run on it
# too (pull_request_target, issue_comment, workflow_run, ...: head branch = the default branch,
# head repository = this one, no PR in the payload), but a fork's PR or any commenter started
# them and chose what fails: taken for the default branch, a fork could make every PR failing
# that way "not caused by this PR" (origin rule 4b). "": a payload that does not say.
OWN_TRIGGERS = frozenset({"push", "schedule", "workflow_dispatch", "repository_dispatch", ""})


def stored_signature(signature: str) -> str:
    """The signature as the memory stores and compares it: redacted (a log line may hold a
    secret, and the branch is as readable as the repository) and bounded."""
    text = clean_for_model(signature).text
    return text if len(text) <= _LIMIT else text[:_LIMIT]


def stored_text(text: str) -> str:
    """A title, branch or job name as a record stores it: cleaned, redacted, 200 characters."""
    return clean_for_model(text).text[:200]


def job_signature(result: TriageResult) -> str | None:
    """The failure's signature as the origin decision computed it (the deterministic verdict's),
    else the verdict's own; None when it has none (an unreadable log)."""
    sig = result.origin.signature if result.origin is not None else None
    sig = sig or signature_text(result.verdict)
    return stored_signature(sig) if sig else None


@dataclass(frozen=True)
class RunPlace:
    """Where this run is: its PR (None for a branch run, or a fork's PR the payload does not
    name), head branch, whether that is the default branch, and the run."""

    pr: int | None
    branch: str
    default_branch: str
    on_default: bool
    run_id: int
    run_url: str
    head_sha: str

    @classmethod
    def of(cls, event: RunEvent) -> RunPlace:
        run, repo = event.workflow_run, event.repository
        stub = run.pull_requests[0].number if run.pull_requests else None
        head = run.head_repository.full_name if run.head_repository else None
        own = head is None or (repo.full_name or "").lower() == head.lower()
        default = repo.default_branch or ""
        branch = run.head_branch or ""
        mine = run.event in OWN_TRIGGERS  # not a fork's PR or a commenter on the default branch
        on_default = stub is None and own and mine and bool(default) and branch == default
        return cls(stub, branch, default, on_default, run.id, run.html_url or "", run.head_sha)

    def other(self, record: SeenRecord) -> bool:
        """A record of another PR or of the default branch, not of this run or this PR."""
        if record.run_id == self.run_id:
            return False
        if record.on_default:
            return True
        if record.pr is None:
            return False  # another branch's push: not what the comment tells
        if self.pr is not None:
            return record.pr != self.pr
        # a fork's PR: by its branch, as the memory stores it (cleaned and cut)
        return self.on_default or record.branch != stored_text(self.branch)


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
            llm_tokens=_tokens(result),
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


def runs_prefix(run_url: str) -> str:
    """This repository's run pages' start (`https://github.com/OWNER/REPO/actions/runs/`), taken
    from this run's own page; "" when it has none."""
    head, sep, _ = run_url.partition("/actions/runs/")
    return head + sep if sep and head.startswith(("https://", "http://")) else ""


def own_links(record: SeenRecord, prefix: str) -> SeenRecord:
    """`record` with its run and job links dropped unless its run link is a run page of this
    repository: anyone with push access can write the memory branch, and the comment links
    what it says (docs/MEMORY.md, docs/THREAT_MODEL.md §5)."""
    url = record.run_url
    if prefix and url.startswith(prefix) and _RUN_TAIL.fullmatch(url[len(prefix) :]):
        return record
    return record.model_copy(update={"run_url": "", "job_url": None})


def with_memory(setup: OriginSetup | None, memory: Memory | None) -> OriginSetup | None:
    """The origin setup whose decisions also ask the memory."""
    if setup is None or memory is None:
        return setup
    return dataclasses.replace(setup, remembered=memory.recall)


def records_of(found: RunResult, place: RunPlace, at: str) -> list[SeenRecord]:
    """The memory's records for the failed jobs of one run: at most MAX_RUN_RECORDS, one per
    distinct signature first (in job order), then the other jobs in order. A fork's workflow
    chooses how many jobs fail and how: unbounded, one run of a wide matrix would push every
    other record out of the newest 200 a reader uses."""
    made = _records(found, place, at)
    first: dict[str, int] = {}
    for i, r in enumerate(made):
        first.setdefault(r.signature, i)
    chosen = sorted(first.values())[:MAX_RUN_RECORDS]
    taken = set(chosen)
    rest = [i for i in range(len(made)) if i not in taken]
    chosen = sorted(chosen + rest[: MAX_RUN_RECORDS - len(chosen)])
    return [made[i] for i in chosen]


def _records(found: RunResult, place: RunPlace, at: str) -> list[SeenRecord]:
    out = []
    for job in found.jobs:
        r = job.result
        signature = r.seen.signature if r.seen is not None else job_signature(r)
        if signature is None or not r.verdict.failed:
            continue
        v = r.verdict
        out.append(
            SeenRecord(
                signature=signature,
                category=v.category,
                decided_by=v.decided_by,
                pattern_id=v.pattern_id,
                learned=v.learned_from is not None,
                title=stored_text(v.title),
                pr=None if place.on_default else place.pr,
                branch=stored_text(place.branch),
                on_default=place.on_default,
                run_id=found.run_id,
                run_url=found.run_url or place.run_url,
                job=stored_text(job.name),
                job_url=job.html_url,
                head_sha=found.head_sha,
                at=at,
                llm_tokens=r.seen.llm_tokens if r.seen is not None else _tokens(r),
            )
        )
    return out


def _with_seen(job: JobResult, seen: SeenBefore | None) -> JobResult:
    if seen is None:
        return job
    return job.model_copy(update={"result": job.result.model_copy(update={"seen": seen})})


def _tokens(result: TriageResult) -> int:
    """Prompt + completion tokens of this job's LLM run, from its trace (0 when none)."""
    if not result.escalated or not result.trace:
        return 0
    try:
        usage = load_trace(result.trace).usage
    except (TraceError, OSError):
        return 0
    return usage.prompt_tokens + usage.completion_tokens
