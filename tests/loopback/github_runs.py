"""Workflow-run listings and run attempts on the loopback GitHub (issue 14).

`GET /repos/{o}/{r}/actions/runs` and `.../actions/workflows/{id}/runs` with the `branch`,
`status`, `event` and `head_sha` filters and `per_page`/`page`, newest first, as GitHub serves
them; `GET .../actions/runs/{id}/attempts/{n}/jobs`; `GET .../compare/{base}...{head}`. Runs live in `State.runs` like the run being
triaged; `add_run` seeds one with the fields these listings read.
"""

from __future__ import annotations

from tests.loopback.github_shapes import repo_obj, shaped

R = r"/repos/([^/]+/[^/]+)"
WORKFLOW_ID = 2823525  # the workflow of the event fixture
WORKFLOW_PATH = ".github/workflows/ci.yml"


def add_run(
    state,
    run_id: int,
    *,
    branch: str,
    head_sha: str,
    jobs: list[dict],
    conclusion: str = "failure",
    number: int | None = None,
    event: str = "push",
    attempt: int = 1,
    attempts: dict[int, list[dict]] | None = None,
    head_repo: str | None = None,
    workflow_id: int = WORKFLOW_ID,
) -> dict:
    """Seed a completed run; `jobs` are its latest attempt's, `attempts` earlier ones' jobs."""
    run = {
        "jobs": jobs,
        "head_sha": head_sha,
        "zip": None,
        "conclusion": conclusion,
        "status": "completed",
        "branch": branch,
        "number": number or run_id,
        "event": event,
        "attempt": attempt,
        "attempts": attempts or {},
        "head_repo": head_repo or state.full_name,
        "workflow_id": workflow_id,
    }
    state.runs[run_id] = run
    return run


def base_run(
    state,
    run_id: int,
    number: int,
    conclusion: str,
    log: bytes | None = None,
    *,
    job: str = "test (3.12)",
) -> None:
    """A push run of `main` with a passing `lint` job and `job` ending as `conclusion`, which
    serves `log` as that job's log when given (the base branch's runs that origin and base-log
    lookups read)."""
    job_id = run_id * 10
    jobs = [
        {"id": job_id - 1, "name": "lint", "conclusion": "success"},
        {"id": job_id, "name": job, "conclusion": conclusion},
    ]
    add_run(
        state,
        run_id,
        branch="main",
        head_sha=f"{number:040x}",
        jobs=jobs,
        conclusion=conclusion,
        number=number,
    )
    if log is not None:
        state.job_logs[job_id] = log


def run_shape(state, full: str, run_id: int, run: dict) -> dict:
    api = f"{state.api}/repos/{full}/actions/runs/{run_id}"
    return shaped(
        "workflow-run.json",
        state,
        id=run_id,
        url=api,
        html_url=f"{state.api}/{full}/actions/runs/{run_id}",
        jobs_url=f"{api}/jobs",
        logs_url=f"{api}/logs",
        rerun_url=f"{api}/rerun",
        status=run.get("status", "completed"),
        conclusion=run.get("conclusion", "failure"),
        head_sha=run.get("head_sha", "0" * 40),
        head_branch=run.get("branch", "feature"),
        run_number=run.get("number", run_id),
        run_attempt=run.get("attempt", 1),
        event=run.get("event", "pull_request"),
        workflow_id=run.get("workflow_id", WORKFLOW_ID),
        path=WORKFLOW_PATH,
        pull_requests=[],
        head_repository=repo_obj(state, run.get("head_repo", full)),
    )


def job_shape(state, full: str, run_id: int, job: dict) -> dict:
    return shaped(
        "job.json",
        state,
        id=job["id"],
        run_id=run_id,
        name=job["name"],
        status="completed",
        conclusion=job["conclusion"],
        **({"steps": job["steps"]} if "steps" in job else {}),
        url=f"{state.api}/repos/{full}/actions/jobs/{job['id']}",
        html_url=f"{state.api}/{full}/actions/runs/{run_id}/job/{job['id']}",
    )


def _matches(run: dict, workflow: str | None, q: dict) -> bool:
    def want(name: str) -> str | None:
        return q.get(name, [None])[0]

    if workflow is not None and workflow not in (
        str(run.get("workflow_id", WORKFLOW_ID)),
        WORKFLOW_PATH.rsplit("/", 1)[-1],
    ):
        return False
    status = want("status")
    if status and status not in (run.get("status", "completed"), run.get("conclusion")):
        return False
    for param, key in (("branch", "branch"), ("head_sha", "head_sha"), ("event", "event")):
        if want(param) and run.get(key) != want(param):
            return False
    return True


def _list(state, full: str, workflow: str | None, q: dict):
    hits = [
        (rid, run)
        for rid, run in state.runs.items()
        if "branch" in run or run.get("listed", False)
        if _matches(run, workflow, q)
    ]
    hits.sort(key=lambda item: item[1].get("number", item[0]), reverse=True)
    per_page = min(100, int(q.get("per_page", ["30"])[0]))
    page = int(q.get("page", ["1"])[0])
    chunk = hits[(page - 1) * per_page : page * per_page]
    runs = [run_shape(state, full, rid, run) for rid, run in chunk]
    return 200, {"total_count": len(hits), "workflow_runs": runs}, {}


def list_runs(state, m, q, b):
    return _list(state, m[1], None, q)


def list_workflow_runs(state, m, q, b):
    return _list(state, m[1], m[2], q)


def attempt_jobs(state, m, q, b):
    run = state.runs.get(int(m[2]))
    n = int(m[3])
    if run is None or n < 1 or n > run.get("attempt", 1):
        return 404, {"message": "Not Found"}, {}
    jobs = run["jobs"] if n == run.get("attempt", 1) else run.get("attempts", {}).get(n, [])
    shaped_jobs = [job_shape(state, m[1], int(m[2]), j) for j in jobs]
    return 200, {"total_count": len(shaped_jobs), "jobs": shaped_jobs}, {}


def compare(state, m, q, b):
    """`GET /repos/{o}/{r}/compare/{base}...{head}`: the files of the PR whose head is `head`."""
    pr = next((p for p in state.pulls.values() if p.get("head_sha") == m[3]), None)
    if pr is None:
        return 404, {"message": "Not Found"}, {}
    files = [
        shaped("diff-entry-items.json", state)[0] | f
        for f in state.pull_files.get(pr["number"], [])
    ]
    return 200, {"status": "ahead", "ahead_by": 1, "behind_by": 0, "files": files}, {}


RUNS_TABLE = [
    ("GET", R + r"/actions/runs", list_runs),
    ("GET", R + r"/actions/workflows/([^/]+)/runs", list_workflow_runs),
    ("GET", R + r"/actions/runs/(\d+)/attempts/(\d+)/jobs", attempt_jobs),
    ("GET", R + r"/compare/([0-9a-f]+)\.\.\.([0-9a-f]+)", compare),
]
