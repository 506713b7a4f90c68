"""Is it my PR? The pure decision of a failed job's `origin` (issue 14), before any LLM.

Inputs are facts gathered elsewhere (github/origin.py from the API, `triage --base-log` from a
file): this job's category and failure signature (origin/signature.py), the same job in the base
branch's latest completed runs, the same job in other attempts of the same commit, and the PR's
changed files. The rules, first match wins:

1. `flaky`: the same job passed on another attempt (or run) of the same commit.
2. `base_branch`: the same job fails on the base branch's latest comparable run with the same
   signature ("since run #N" is the oldest of the consecutive such failures looked at).
3. `flaky`: the same signature failed on the base branch and a later base run passed the job.
4. `infra`: the category is runner, network, timeout or disk trouble and the PR's changes show no
   sign of it (no CI/container configuration changed, no changed file named in the evidence).
4b. `base_branch` from memory (issue 28): RepoPilot's memory (docs/MEMORY.md) holds the same
   signature from runs on the default branch, and the base branch's latest run looked at does
   not pass the job; when it does, the memory's failure may have been fixed since and come back
   with this PR, or be flaky: `undetermined`. The live runs of rules 1-3 outrank the memory.
5. `this_pr`: the job passes on the base branch's latest comparable run, the signature appears in
   none of the runs looked at, and every lookup completed.
6. `undetermined`: anything else, including lookups cut short by the request budget or an API
   error; nothing is said about blame then.

Rules 1-3 rest on positive evidence and hold even when later lookups failed; rule 5 is a claim
about absence, so it needs them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from repopilot.records import Category, Origin, Verdict
from repopilot.run_records import OriginVerdict

# The categories that say "the machine, not the code" (runner lost, network, timeout or
# cancellation, out of memory or disk); permission/secret failures are left out on purpose: a PR
# can cause them (a fork has no secrets, a workflow change drops a permission).
INFRA_ORIGIN_CATEGORIES: frozenset[str] = frozenset(
    {"runner_infra", "network", "timeout_cancelled", "oom_disk"}
)
# Conclusions of a base-branch job that say something about the code; cancelled or skipped do not.
PASSED = frozenset({"success"})
FAILED = frozenset({"failure", "timed_out"})
# Changed paths that can cause infrastructure-looking failures themselves.
_CI_DIRS = (".github/", ".devcontainer/", ".circleci/")
_CI_FILES = ("dockerfile", "docker-compose", "compose.", "containerfile")
_CI_NAMES = frozenset({"action.yml", "action.yaml"})

# Origins whose fix does not belong on this PR: the LLM is not asked about them under
# escalate=auto (with escalate=fixable it still is).
ELSEWHERE: frozenset[str] = frozenset({"base_branch", "flaky"})

OriginHook = Callable[[Verdict], OriginVerdict]
"""The seam the pipeline calls for each failed job's deterministic verdict."""


@dataclass(frozen=True, slots=True)
class BaseJob:
    """The same job (same workflow, same name) in one completed run of the base branch.

    `signature` is known only for failed jobs whose log was read (None otherwise)."""

    run_number: int | None  # None: a log given by hand (`triage --base-log`), not a run
    run_url: str
    conclusion: str
    signature: str | None = None

    @property
    def named(self) -> str:
        return f"run #{self.run_number}" if self.run_number is not None else "the base log"


@dataclass(frozen=True, slots=True)
class OriginFacts:
    """Everything the decision looks at, for one failed job.

    `base` is newest first and holds only runs where the job exists. `attempts` are the job's
    conclusions in other attempts or runs of the same commit. `changed_files` None: there is
    no PR to look at; `changes_checked` False: there is one but its files could not be listed.
    `incomplete`: why the lookups stopped early (budget, API error)."""

    category: Category
    signature: str | None
    evidence: str = ""
    base_branch: str | None = None
    base: tuple[BaseJob, ...] = ()
    attempts: tuple[str, ...] = ()
    changed_files: tuple[str, ...] | None = None
    changes_checked: bool = True
    incomplete: str | None = None
    rerun_url: str | None = None
    requests: int = 0
    remembered: Remembered | None = None


@dataclass(frozen=True, slots=True)
class Remembered:
    """The same signature in RepoPilot's memory of the default branch (issue 28): the oldest
    such record read (`since`, an ISO 8601 time, and its run's page) and how many there are."""

    branch: str
    since: str
    run_url: str
    runs: int = 1


def decide(facts: OriginFacts) -> OriginVerdict:
    """The origin of one failed job by the rules in the module docstring, in their order."""
    where = facts.base_branch or "the base branch"  # plain: the comment escapes reasons
    base = [b for b in facts.base if b.conclusion in PASSED | FAILED]
    origin, reason, run = (
        _passed_on_retry(facts)
        or _on_the_base_branch(facts, base, where)
        or _came_and_went(facts, base, where)
        or _infrastructure(facts)
        or _from_memory(facts, base)
        or _against_the_latest(facts, base, where)
    )
    return OriginVerdict(
        origin=origin,
        reason=reason,
        signature=facts.signature,
        base_branch=facts.base_branch,
        base_run_number=run.run_number if run else None,
        base_run_url=(run.run_url or None) if run else None,
        rerun_url=facts.rerun_url,
        requests=facts.requests,
    )


# (origin, reason, the base-branch run it was decided from), or None: the next rule decides
_Found = tuple[Origin, str, BaseJob | None]


def _passed_on_retry(facts: OriginFacts) -> _Found | None:
    if any(c in PASSED for c in facts.attempts):
        return "flaky", "the same job passed on another attempt of the same commit", None
    return None


def _on_the_base_branch(facts: OriginFacts, base: list[BaseJob], where: str) -> _Found | None:
    """The latest base-branch runs fail with the same signature: since the oldest of them."""
    if not (base and facts.signature is not None and _same(base[0], facts.signature)):
        return None
    since = base[0]
    for b in base[1:]:
        if not _same(b, facts.signature):
            break
        since = b
    when = f"since {since.named}" if since.run_number is not None else "(the base log)"
    return "base_branch", f"the same failure is on {where} {when}", since


def _came_and_went(facts: OriginFacts, base: list[BaseJob], where: str) -> _Found | None:
    """An older base-branch run failed the same way and a later one passed."""
    if facts.signature is None:
        return None
    for i, older in enumerate(base):
        passed = next((b for b in base[:i] if b.conclusion in PASSED), None)
        if passed is not None and _same(older, facts.signature):
            reason = (
                f"the same failure came and went on {where} ({older.named} failed, "
                f"{passed.named} passed)"
            )
            return "flaky", reason, older
    return None


def _infrastructure(facts: OriginFacts) -> _Found | None:
    if facts.category not in INFRA_ORIGIN_CATEGORIES:
        return None
    if not facts.changes_checked:
        return "undetermined", "an infrastructure failure; the PR's changes are unknown", None
    sign = _sign_in_changes(facts)
    if sign is None:
        return "infra", f"a {facts.category.replace('_', ' ')} failure", None
    return "undetermined", f"an infrastructure failure, but the PR changes {sign}", None


def _from_memory(facts: OriginFacts, base: list[BaseJob]) -> _Found | None:
    """Rule 4b: the memory has this failure on the default branch."""
    seen = facts.remembered
    if seen is None or facts.signature is None:
        return None
    if facts.base_branch and facts.base_branch != seen.branch:
        return None  # a PR into another branch: the default branch's failures are not its base's
    day = seen.since[:10]
    if base and base[0].conclusion in PASSED:
        reason = (
            f"the job passes on {facts.base_branch or 'the base branch'} ({base[0].named}), but "
            f"the same failure was seen on {seen.branch} on {day}"
        )
        return "undetermined", reason, None
    since = BaseJob(None, seen.run_url, "failure", facts.signature)
    return "base_branch", f"the same failure is on {seen.branch} since {day}", since


def _against_the_latest(facts: OriginFacts, base: list[BaseJob], where: str) -> _Found:
    """What is left: the latest completed base-branch run decides, if there is one."""
    if facts.incomplete:
        return "undetermined", facts.incomplete, None
    if not base:
        return "undetermined", f"no completed run of this job on {where} to compare", None
    latest = base[0]
    if latest.conclusion in PASSED and facts.signature is not None:
        return "this_pr", f"the job passes on {where} ({latest.named})", latest
    if latest.conclusion in PASSED:
        return "undetermined", "the failure has no signature to compare", None
    return (
        "undetermined",
        f"the job fails on {where} too ({latest.named}), with another failure",
        latest,
    )


def _same(job: BaseJob, signature: str | None) -> bool:
    return job.conclusion in FAILED and job.signature is not None and job.signature == signature


def _sign_in_changes(facts: OriginFacts) -> str | None:
    """What in the PR's changes could explain an infrastructure-looking failure, or None."""
    evidence = facts.evidence.lower()
    for path in facts.changed_files or ():
        low = path.lower()
        name = low.rsplit("/", 1)[-1]
        if low.startswith(_CI_DIRS) or name.startswith(_CI_FILES) or name in _CI_NAMES:
            return f"CI configuration ({path})"
        if low in evidence:
            return f"{path}, which the evidence names"
    return None


def base_log_hook(
    base: Sequence[Verdict], sign: Callable[[Verdict], str | None], branch: str | None = None
) -> OriginHook:
    """Origins from a log of the same job on the base branch (`repopilot triage --base-log`),
    offline: that log stands for the base branch's latest run; no attempts, no PR files. With
    several jobs in it, the one with the same job name is compared (else the first)."""

    def hook(verdict: Verdict) -> OriginVerdict:
        name = (verdict.job or "").strip()
        named = [b for b in base if name and (b.job or "").strip() == name]
        jobs = tuple(
            BaseJob(None, "", "failure" if b.failed else "success", sign(b) if b.failed else None)
            for b in (named or list(base))[:1]
        )
        evidence = " ".join(e.text for e in verdict.evidence)
        return decide(OriginFacts(verdict.category, sign(verdict), evidence, branch, jobs))

    return hook
