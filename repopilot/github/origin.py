"""The GitHub side of "is it my PR?" (issue 14): gather the facts `repopilot.origin.decide` decides on.

For one failed run, within a budget of extra API requests (default 30, `origin-budget` /
REPOPILOT_ORIGIN_BUDGET), shared by all its failed jobs and cached between them:
- earlier attempts of this run (`GET /actions/runs/{id}/attempts/{n}/jobs`), and other completed
  runs of the same workflow at the same head SHA (`.../workflows/{id}/runs?head_sha=`);
- the base branch's latest completed runs of the same workflow (`...?branch=&status=completed`),
  their jobs, and the log of the same job (same name, matrix values included) only where it failed;
- the PR's changed files (`compare/{base}...{head}`), only for infrastructure-looking failures.
Every request is counted before it is sent and never retried here (the client's own bounded
retries are the only ones). Budget exhaustion and API errors stop the lookups and leave what was
gathered; the decision then says `undetermined` where the missing facts would have mattered.
Needs only `actions: read` and `contents: read`, so it runs in the read-only `analyze` job.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

import requests
from github import GithubException
from github.Repository import Repository

from repopilot.github.events import RunEvent
from repopilot.github.origin_setup import BaseLog, OriginSetup, Triage
from repopilot.github.runs import FailedJob, LogUnavailable, fetch_job_log
from repopilot.origin.decide import (
    FAILED,
    INFRA_ORIGIN_CATEGORIES,
    BaseJob,
    OriginFacts,
    decide,
)
from repopilot.records import Verdict
from repopilot.run_records import BaselineRun, OriginVerdict, TriageResult

BASE_RUNS = 5  # base-branch runs looked at, newest first
MAX_ATTEMPTS = 3  # earlier attempts of this run looked at
MAX_SAME_SHA = 2  # other runs of the same commit looked at
GREEN_RUNS = 2  # base-branch green runs whose jobs are listed to find a passing log

T = TypeVar("T")
_Json: TypeAlias = dict[str, Any]  # one object of an API answer (the wire: read with .get)
_Key: TypeAlias = tuple[Hashable, ...]  # a lookup's cache key: its kind, then its arguments


class BudgetExhausted(Exception):
    """The next request would pass the budget."""


class OriginLookup:
    """The lookups for one failed run; `decide(job, verdict)` gives each failed job its origin."""

    def __init__(self, repo: Repository, event: RunEvent, setup: OriginSetup, workdir: Path):
        self.repo, self.event, self.setup, self.workdir = repo, event, setup, workdir
        self.classify, self.sign, self.budget, self.used = (
            setup.classify,
            setup.sign,
            setup.budget,
            0,
        )
        run = event.workflow_run
        self.run = run
        stub = run.pull_requests[0] if run.pull_requests else None
        self.pr = stub.number if stub else None
        self.base_sha = stub.base.sha if stub and stub.base else None
        self.base_branch = (stub.base.ref if stub and stub.base else None) or (
            event.repository.default_branch
        )
        self.workflow: str | None = str(run.workflow_id) if run.workflow_id else None
        if self.workflow is None and run.path.startswith(".github/workflows/"):
            # the API takes the file name too; a payload's path may end in `@<ref>`
            self.workflow = run.path.split("@", 1)[0].rsplit("/", 1)[-1]
        self._cache: dict[_Key, Any] = {}
        self.failed: str | None = None  # why lookups stopped for good, once they did

    # ---------------------------------------------------------------- requests
    def _spend(self) -> None:
        """Count one request before it is sent; refuse it past the budget or after an error."""
        if self.failed:
            raise BudgetExhausted(self.failed)
        if self.used >= self.budget:
            self.failed = f"the request budget ({self.budget}) ran out"
            raise BudgetExhausted(self.failed)
        self.used += 1

    def _get(self, path: str, **params: Any) -> Any:
        self._spend()
        _, data = self.repo.requester.requestJsonAndCheck(
            "GET", f"{self.repo.url}{path}", parameters=params or None
        )
        return data

    def _cached(self, key: _Key, load: Callable[[], T]) -> T:
        if key not in self._cache:
            self._cache[key] = load()
        got: T = self._cache[key]  # (what `load` gave for this key: one kind per key)
        return got

    def _runs(self, **filters: str) -> list[_Json]:
        key = ("runs", *sorted(filters.items()))
        path = f"/actions/workflows/{self.workflow}/runs"
        data = self._cached(
            key, lambda: self._get(path, status="completed", per_page=20, **filters)
        )
        return [r for r in data.get("workflow_runs", []) if isinstance(r, dict)]

    def _job(self, run_id: int, name: str, attempt: int | None = None) -> _Json | None:
        """The job named `name` in a run (latest attempt, or `attempt`), or None."""
        key: _Key = ("jobs", run_id, attempt)
        path, extra = f"/actions/runs/{run_id}/jobs", {"filter": "latest"}
        if attempt is not None:
            path, extra = f"/actions/runs/{run_id}/attempts/{attempt}/jobs", {}
        data = self._cached(key, lambda: self._get(path, per_page=100, **extra))
        jobs = [j for j in data.get("jobs", []) if isinstance(j, dict)]
        return next((j for j in jobs if str(j.get("name", "")).strip() == name.strip()), None)

    def _base_signature(self, job: _Json) -> str | None:
        """The signature of a failed base-branch job, from its log; None when it is gone."""

        def load() -> str | None:
            failed = FailedJob(int(job["id"]), str(job["name"]), str(job["conclusion"]), None)
            self._spend()  # the job log endpoint's 302; the storage download is not the API
            try:
                path = fetch_job_log(self.repo, failed, self.workdir, self.setup.log_cap).path
            except LogUnavailable:
                return None  # expired or refused: this base job cannot be compared
            try:
                verdicts = [v for v in self.classify(str(path)) if v.failed]
            finally:
                path.unlink(missing_ok=True)
            return self.sign(verdicts[0]) if verdicts else None

        return self._cached(("log", job["id"]), load)

    def green_log(self, name: str) -> BaseLog | None:
        """The log of the job named `name` in the newest successful run of this workflow on the
        base branch (issue 20), cut at the log cap; None when there is none or the budget, the
        API or the download says no. One download at most per job; the runs and jobs lists are
        the ones the origin decision reads (cached both ways)."""
        return self._cached(("green", name.strip()), lambda: self._green(name))

    def _green(self, name: str) -> BaseLog | None:
        try:
            if not self.base_branch or not self._workflow():
                return None
            runs = [r for r in self._runs(branch=self.base_branch) if self._comparable(r)]
            green = [r for r in runs if r.get("conclusion") == "success"]
            for run in green[:GREEN_RUNS]:
                job = self._job(int(run["id"]), name)
                if job is None:
                    continue  # not in that run (matrix or condition changed): an older one
                if job.get("conclusion") != "success":
                    return None  # skipped there: no log of it passing
                passed = FailedJob(int(job["id"]), str(job["name"]), "success", None)
                self._spend()  # the job log endpoint's 302; the storage download is not the API
                path = fetch_job_log(self.repo, passed, self.workdir, self.setup.log_cap).path
                found = BaselineRun(number=int(run.get("run_number") or 0))
                url = str(run.get("html_url") or "")
                if url.startswith(("https://", "http://")):
                    found = found.model_copy(update={"url": url})
                return BaseLog(str(path), found)
        except LogUnavailable:
            return None  # expired or refused: the verdict stands without the comparison
        except (BudgetExhausted, GithubException, requests.RequestException) as e:
            self._why(e)  # the origin lookups that follow stop too, with the same reason
            return None
        except (OSError, ValueError, KeyError, TypeError):  # odd payloads: no comparison
            return None
        return None

    # ---------------------------------------------------------------- facts
    def _attempts(self, name: str) -> list[str]:
        out = []
        first = max(1, self.run.run_attempt - MAX_ATTEMPTS)
        for n in range(self.run.run_attempt - 1, first - 1, -1):
            job = self._job(self.run.id, name, attempt=n)
            if job is not None:
                out.append(str(job.get("conclusion")))
        # Other runs of this commit, triggered the same way (a `push` run and a `pull_request`
        # run of one commit test different trees: the latter is merged with the base).
        runs = self._runs(head_sha=self.run.head_sha)
        own = next((r for r in runs if r.get("id") == self.run.id), None)
        event = own.get("event") if own else None
        others = [r for r in runs if r.get("id") != self.run.id and r.get("event") == event]
        for other in others[:MAX_SAME_SHA]:
            job = self._job(int(other["id"]), name)
            if job is not None:
                out.append(str(job.get("conclusion")))
        return out

    def _base(self, name: str) -> list[BaseJob]:
        if not self.base_branch:
            return []
        runs = [r for r in self._runs(branch=self.base_branch) if self._comparable(r)]
        out: list[BaseJob] = []
        for run in runs[:BASE_RUNS]:
            number, url = int(run.get("run_number") or 0), str(run.get("html_url") or "")
            # Once the job is seen in a newer run, an older green run needs no jobs request:
            # every job of it passed. The newest comparable one is always looked at.
            if out and run.get("conclusion") == "success":
                out.append(BaseJob(number, url, "success"))
                continue
            job = self._job(int(run["id"]), name)
            if job is None:
                continue  # the job is not in that run (matrix or condition changed)
            conclusion = str(job.get("conclusion"))
            sig = self._base_signature(job) if conclusion in FAILED else None
            out.append(BaseJob(number, url, conclusion, sig))
        return out

    def _comparable(self, run: _Json) -> bool:
        """A base-branch run of the base repository itself, not this run or commit (a fork's
        PR from a branch that happens to be named like the base branch lists there too)."""
        head_repo = (run.get("head_repository") or {}).get("full_name")
        own = self.event.repository.full_name
        return (
            run.get("id") != self.run.id
            and run.get("head_sha") != self.run.head_sha
            and not str(run.get("event", "")).startswith("pull_request")
            and (head_repo is None or own is None or head_repo.lower() == own.lower())
        )

    def _changed_files(self) -> tuple[str, ...] | None:
        """The PR's changed paths, by comparing its base and head commits: `contents: read` is
        enough (the pulls API would need `pull-requests: read`), and a fork's head commit is
        in the base repository's network. None when the run names no PR."""
        if self.pr is None or not self.base_sha:
            return None
        path = f"/compare/{self.base_sha}...{self.run.head_sha}"
        data = self._cached(("files",), lambda: self._get(path, per_page=100))
        files = data.get("files", []) if isinstance(data, dict) else []
        return tuple(str(f.get("filename", "")) for f in files if isinstance(f, dict))

    def _workflow(self) -> str | None:
        """The run's workflow id: from the event, else (the same-workflow mode, whose push or
        pull_request payload does not name it) from `GET /actions/runs/{id}`, once."""
        if self.workflow is None:
            data = self._cached(("run",), lambda: self._get(f"/actions/runs/{self.run.id}"))
            found = data.get("workflow_id") if isinstance(data, dict) else None
            self.workflow = str(found) if found else ""
        return self.workflow or None

    def decide(self, job_name: str, verdict: Verdict) -> OriginVerdict:
        """This failed job's origin; never raises for API trouble or an exhausted budget."""
        evidence = " ".join(e.text for e in verdict.evidence)
        sig, recall = self.sign(verdict), self.setup.remembered
        facts = OriginFacts(
            verdict.category,
            sig,
            evidence,
            base_branch=self.base_branch,
            rerun_url=self.run.html_url,
            remembered=recall(sig) if recall is not None else None,  # issue 28: the memory
        )
        attempts: list[str] = []
        base: list[BaseJob] = []
        try:
            if not self._workflow():
                facts = replace(facts, incomplete="the run's workflow is not known")
            else:
                attempts = self._attempts(job_name)
                if "success" not in attempts:
                    base = self._base(job_name)
            facts = replace(facts, attempts=tuple(attempts), base=tuple(base))
            if verdict.category in INFRA_ORIGIN_CATEGORIES:
                try:
                    facts = replace(facts, changed_files=self._changed_files())
                except (GithubException, requests.RequestException, BudgetExhausted):
                    facts = replace(facts, changes_checked=False)
        except (BudgetExhausted, GithubException, requests.RequestException) as e:
            facts = replace(
                facts, attempts=tuple(attempts), base=tuple(base), incomplete=self._why(e)
            )
        except (OSError, ValueError, KeyError, TypeError) as e:  # odd payloads: say so, go on
            facts = replace(facts, incomplete=f"lookups stopped ({e.__class__.__name__})")
        return decide(replace(facts, requests=self.used))

    def _why(self, exc: BaseException) -> str:
        if isinstance(exc, GithubException):
            self.failed = f"the GitHub API answered {exc.status} to a lookup"
        elif not isinstance(exc, BudgetExhausted):
            self.failed = f"the GitHub API could not be reached ({exc.__class__.__name__})"
        return self.failed or str(exc)

    # ---------------------------------------------------------------- the flow's seam
    def bind(self, triage: Triage, job_name: str | None) -> Triage:
        """`triage` for one log whose failed jobs get their origin; `job_name` None: a run zip
        (each verdict names its job). A triage taking the origin hook also gets the job's last
        green log (`green_log`, issue 20), fetched before it classifies the failing one."""

        def hook(verdict: Verdict) -> OriginVerdict:
            return self.decide(job_name or (verdict.job or "").strip(), verdict)

        with_hook = self.setup.triage
        if with_hook is not None and job_name:
            return lambda path: with_hook(path, hook, self.green_log(job_name))
        if with_hook is not None:
            return lambda path: with_hook(path, hook)
        return lambda path: [self.attach(job_name, r) for r in triage(path)]

    def attach(self, job_name: str | None, result: TriageResult) -> TriageResult:
        """`result` with an origin, if it is a failure that has none yet."""
        if result.origin is not None or not result.verdict.failed:
            return result
        name = job_name or (result.verdict.job or "").strip()
        return result.model_copy(update={"origin": self.decide(name, result.verdict)})
