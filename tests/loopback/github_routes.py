"""Route handlers of the loopback GitHub server: (state, match, query, body) -> (status, body, headers)."""

from __future__ import annotations

from tests.loopback.github_contents import CONTENTS_TABLE
from tests.loopback.github_git_routes import GIT_TABLE
from tests.loopback.github_runs import RUNS_TABLE
from tests.loopback.github_shapes import (
    comment_shape,
    pr_shape,
    repo_obj,
    shaped,
    user_obj,
)

R = r"/repos/([^/]+/[^/]+)"
LEGACY = {"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read"}


def get_user(state, m, q, b):
    if state.bot is None:
        return (
            403,
            {"message": "Resource not accessible by integration", "documentation_url": "x"},
            {},
        )
    return 200, user_obj(state, state.bot, "Bot" if state.bot.endswith("[bot]") else "User"), {}


def get_repo(state, m, q, b):
    return 200, repo_obj(state, m[1]), {}


def get_run(state, m, q, b):
    run_id = int(m[2])
    run = state.runs.get(run_id)
    if run is None:
        return 404, {"message": "Not Found"}, {}
    base = f"{state.api}/repos/{m[1]}/actions/runs/{run_id}"
    return (
        200,
        shaped(
            "workflow-run.json",
            state,
            id=run_id,
            url=base,
            jobs_url=f"{base}/jobs",
            logs_url=f"{base}/logs",
            conclusion=run.get("conclusion", "failure"),
            head_sha=run.get("head_sha", "0" * 40),
            run_attempt=run.get("attempt", 1),
            **({"workflow_id": run["workflow_id"]} if "workflow_id" in run else {}),
        ),
        {},
    )


def list_jobs(state, m, q, b):
    run_id = int(m[2])
    jobs = [
        shaped(
            "job.json",
            state,
            id=j["id"],
            run_id=run_id,
            name=j["name"],
            conclusion=j["conclusion"],
            **({"steps": j["steps"]} if "steps" in j else {}),
            url=f"{state.api}/repos/{m[1]}/actions/jobs/{j['id']}",
            html_url=f"{state.api}/{m[1]}/actions/runs/{run_id}/job/{j['id']}",
        )
        for j in state.runs.get(run_id, {}).get("jobs", [])
    ]
    return 200, {"total_count": len(jobs), "jobs": jobs}, {}


def job_logs(state, m, q, b):
    log = state.job_logs.get(int(m[2]))
    if log is None or isinstance(log, int):
        return log or 404, {"message": "Not Found"}, {}
    return 302, None, {"Location": f"{state.storage}/jobs/{m[2]}?sig=short-lived"}


def run_logs(state, m, q, b):
    if state.runs.get(int(m[2]), {}).get("zip") is None:
        return 410, {"message": "Gone"}, {}
    return 302, None, {"Location": f"{state.storage}/runs/{m[2]}.zip?sig=short-lived"}


def storage(state, path: str):
    if path.startswith("/jobs/"):
        log = state.job_logs.get(int(path.split("/")[2]))
        return (200, log, {}) if isinstance(log, bytes) else (404, b"", {})
    zipped = state.runs.get(int(path.split("/")[2].split(".")[0]), {}).get("zip")
    return (200, zipped, {}) if zipped else (404, b"", {})


def list_pulls(state, m, q, b):
    owner, _, branch = q.get("head", [":"])[0].partition(":")
    want = q.get("state", ["open"])[0]
    hits = [
        p
        for p in state.pulls.values()
        if (not branch or (p["head_repo"].split("/")[0] == owner and p["head_ref"] == branch))
        and (want == "all" or p.get("state", "open") == want)
    ]
    # pulls the code opened (issue 21: one learning pull request per pattern), found by head
    made = [
        {"number": p["number"], "head_ref": branch, "head_sha": "0" * 40,
         "head_repo": f"{owner}/{m[1].split('/')[1]}"}
        for p in state.fork_pulls
        if branch and p.get("repo") == m[1] and p["head"].split(":")[-1] == branch
    ]  # fmt: skip
    return 200, [pr_shape(state, p) for p in hits + made], {}


def get_pull(state, m, q, b):
    pr = state.pulls.get(int(m[2]))
    return (
        (200, pr_shape(state, pr), {})
        if pr and m[1] == state.full_name
        else (404, {"message": "Not Found"}, {})
    )


def create_pull(state, m, q, b):
    if not state.fork_accepts_pulls:
        return 403, {"message": "Resource not accessible by integration"}, {}
    n = state.new_id()
    state.fork_pulls.append({"repo": m[1], **b, "number": n})
    return (
        201,
        {
            **pr_shape(
                state,
                {
                    "number": n,
                    "head_ref": b["head"].split(":")[-1],
                    "head_sha": "0" * 40,
                    "head_repo": state.full_name,
                },
            ),
            "html_url": f"{state.api}/{m[1]}/pull/{n}",
        },
        {},
    )


def pull_files(state, m, q, b):
    files = state.pull_files.get(int(m[2]), [])
    return 200, [shaped("diff-entry-items.json", state)[0] | f for f in files], {}


def list_reviews(state, m, q, b):
    return 200, [r for r in state.reviews if r["pull"] == int(m[2])], {}


def create_review(state, m, q, b):
    if state.pulls.get(int(m[2]), {}).get("head_sha") != b.get("commit_id"):
        return 422, {"message": "commit_id is not part of the pull request"}, {}
    rid = state.new_id()
    review = shaped(
        "pull-request-review.json",
        state,
        id=rid,
        body=b.get("body", ""),
        user=user_obj(state, state.bot or "github-actions[bot]", "Bot"),
        commit_id=b["commit_id"],
        state="COMMENTED",
    )
    state.reviews.append({**review, "pull": int(m[2]), "comments": b.get("comments", [])})
    return 200, review, {}


def list_comments(state, m, q, b):
    return 200, [comment_shape(state, c) for c in state.issue_comments(int(m[2]))], {}


def create_comment(state, m, q, b):
    cid = state.add_comment(int(m[2]), b["body"], state.bot or "github-actions[bot]", "Bot")
    return 201, comment_shape(state, state.comments[cid]), {}


def get_comment(state, m, q, b):
    c = state.comments.get(int(m[2]))
    return (200, comment_shape(state, c), {}) if c else (404, {"message": "Not Found"}, {})


def edit_comment(state, m, q, b):
    c = state.comments.get(int(m[2]))
    if c is None:
        return 404, {"message": "Not Found"}, {}
    c["body"] = b["body"]
    return 200, comment_shape(state, c), {}


def delete_comment(state, m, q, b):
    if state.comments.pop(int(m[2]), None) is None:
        return 404, {"message": "Not Found"}, {}
    return 204, None, {}


def permission(state, m, q, b):
    role = state.permissions.get(m[2])
    if role is None:
        return 404, {"message": f"{m[2]} is not a user"}, {}
    return (
        200,
        shaped(
            "collaborator-permission.json",
            state,
            permission=LEGACY.get(role, "read"),
            role_name=role,
            user=user_obj(state, m[2]),
        ),
        {},
    )


def _file_at(state, full: str, ref: str, path: str) -> str:
    """A file's text at a branch of the in-memory git store ("" when it is not there)."""
    sha = state.refs.get(full, {}).get(ref)
    if sha is None:
        return ""
    kind, obj = "tree", state.git.commits[sha].tree
    for part in path.split("/"):
        if kind != "tree" or part not in state.git.trees[obj]:
            return ""
        _mode, kind, obj = state.git.trees[obj][part]
    return state.git.blobs[obj].decode("utf-8", "replace") if kind == "blob" else ""


def create_dispatch(state, m, q, b):
    """`POST .../actions/workflows/{id}/dispatches` (issue 23): 404 for a workflow id not in
    `State.workflow_paths`, 422 when its file on the default branch has no `workflow_dispatch`
    (GitHub reads it at the dispatched ref; the tests keep both the same), else 204, recorded in
    `State.dispatches`."""
    path = state.workflow_paths.get(int(m[2]))
    if path is None:
        return 404, {"message": "Not Found"}, {}
    text = _file_at(state, m[1], "main", path)
    if "workflow_dispatch" not in text or not isinstance(b, dict) or not b.get("ref"):
        return 422, {"message": "Workflow does not have 'workflow_dispatch' trigger"}, {}
    state.dispatches.append({"workflow_id": int(m[2]), "ref": b["ref"], "inputs": b.get("inputs")})
    return 204, None, {}


TABLE = [
    ("POST", R + r"/actions/workflows/(\d+)/dispatches", create_dispatch),  # issue 23
    *GIT_TABLE,
    *CONTENTS_TABLE,  # a repository's own patterns on its default branch (issue 21)
    *RUNS_TABLE,  # run listings and attempts (issue 14)
    ("GET", r"/user", get_user),
    ("GET", R, get_repo),
    ("GET", R + r"/actions/runs/(\d+)", get_run),
    ("GET", R + r"/actions/runs/(\d+)/jobs", list_jobs),
    ("GET", R + r"/actions/runs/(\d+)/logs", run_logs),
    ("GET", R + r"/actions/jobs/(\d+)/logs", job_logs),
    ("GET", R + r"/pulls", list_pulls),
    ("POST", R + r"/pulls", create_pull),
    ("GET", R + r"/pulls/(\d+)", get_pull),
    ("GET", R + r"/pulls/(\d+)/files", pull_files),
    ("GET", R + r"/pulls/(\d+)/reviews", list_reviews),
    ("POST", R + r"/pulls/(\d+)/reviews", create_review),
    ("GET", R + r"/issues/(\d+)/comments", list_comments),
    ("POST", R + r"/issues/(\d+)/comments", create_comment),
    ("GET", R + r"/issues/comments/(\d+)", get_comment),
    ("PATCH", R + r"/issues/comments/(\d+)", edit_comment),
    ("DELETE", R + r"/issues/comments/(\d+)", delete_comment),
    ("GET", R + r"/collaborators/([^/]+)/permission", permission),
]
