"""The memory's records of one run (issue 28, docs/MEMORY.md): where the run is (`RunPlace`: its
PR or branch, whether it is the default branch's own run), the records it adds (`records_of`, one
per failed job with a signature, at most MAX_RUN_RECORDS), and the forms text and links take in
them (`stored_signature`, `stored_text`, `own_links`). Everything here is attacker-shaped input
made safe to store and compare: a fork's workflow names its jobs and chooses what fails, and the
memory branch itself is anyone-with-push's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repopilot.action.result_file import RunResult
from repopilot.errors import TraceError
from repopilot.github.events import RunEvent
from repopilot.origin.signature import signature_text
from repopilot.run_records import SeenRecord, TriageResult
from repopilot.safety.redact import clean_for_model
from repopilot.trace import load as load_trace

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
                llm_tokens=r.seen.llm_tokens if r.seen is not None else tokens_of(r),
            )
        )
    return out


def tokens_of(result: TriageResult) -> int:
    """Prompt + completion tokens of this job's LLM run, from its trace (0 when none)."""
    if not result.escalated or not result.trace:
        return 0
    try:
        usage = load_trace(result.trace).usage
    except (TraceError, OSError):
        return 0
    return usage.prompt_tokens + usage.completion_tokens
