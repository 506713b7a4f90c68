"""Run `python -m repopilot action` as the Actions runner does, against the loopback GitHub.

`seed` puts a repository, a PR and a failed run into a State; `run_event` / `comment_event` build
webhook payloads from the fixture shapes; `run_action` runs the entry point with INPUT_* variables,
GITHUB_EVENT_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and reads them back.

By default the entry point runs in this process through `repopilot.action.entry.main(env)`, with the same
environment, working directory, exit status and captured output (file descriptors 1 and 2 as well
as sys.stdout/sys.stderr, so git's output and warnings are seen as in a subprocess; a crash becomes
exit status 1 with its traceback on stderr). `process=True` starts `python -m repopilot action` in a
real subprocess instead: the few end-to-end tests that check the console entry point do that, and
so does every run started from a thread other than the main one (runs at once need processes).
REPOPILOT_TEST_ACTION_PROCESS=1 in the test run's environment makes every run a subprocess (to check
that both ways agree).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.loopback.github_server import FIXTURES, State, fixture

ROOT = Path(__file__).resolve().parents[2]
REPO = "octo-org/octo-repo"
FORK = "forker/octo-repo"
BOT = "repopilot-bot"
LOG = (FIXTURES / "logs" / "gha_pytest_failed.log").read_bytes()
BASE_FILES = {
    "src/calc.py": b"def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": b"from src.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "run.sh": ("100755", b"#!/bin/sh\npytest -q\n"),
}
HEAD_FILES = {**BASE_FILES, "src/calc.py": b"def add(a, b):\n    return a - b\n"}
FIX = (
    "--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n"
    "-    return a - b\n+    return a + b\n"
)


STEPS = [
    {"name": "Set up job", "status": "completed", "conclusion": "success", "number": 1},
    {"name": "Run pytest -q", "status": "completed", "conclusion": "failure", "number": 3},
    {"name": "Complete job", "status": "completed", "conclusion": "success", "number": 5},
]


@dataclass(frozen=True)
class Facts:
    base_sha: str
    head_sha: str
    pr: int = 7
    run_id: int = 555
    job_id: int = 101


def seed(state: State, *, fork: bool = False) -> Facts:
    """A repository whose PR #7 (branch `feature`, from a fork if asked) broke `add`."""
    git = state.git
    base = git.put_commit(git.tree_of_files(BASE_FILES), [], "base")
    head = git.put_commit(git.tree_of_files(HEAD_FILES), [base], "break add")
    state.refs[REPO] = {"main": base} if fork else {"main": base, "feature": head}
    if fork:
        state.refs[FORK] = {"main": base, "feature": head}
    state.pulls[7] = {
        "number": 7,
        "head_ref": "feature",
        "head_sha": head,
        "head_repo": FORK if fork else REPO,
        "base_ref": "main",
        "base_sha": base,
    }
    jobs = [
        {"id": 100, "name": "lint", "conclusion": "success"},
        {"id": 101, "name": "test (3.12)", "conclusion": "failure", "steps": STEPS},
    ]
    state.runs[555] = {"jobs": jobs, "head_sha": head, "zip": None}
    state.job_logs[101] = LOG
    state.permissions.update(maint="maintain", writer="write", reader="read", admin1="admin")
    return Facts(base, head)


def run_event(
    facts: Facts,
    *,
    conclusion: str = "failure",
    fork: bool = False,
    prs: bool = True,
    path: str = ".github/workflows/ci.yml",
) -> dict:
    event = fixture("event-workflow_run-failure.json")
    run = event["workflow_run"]
    head_repo = FORK if fork else REPO
    run.update(
        id=facts.run_id,
        conclusion=conclusion,
        head_sha=facts.head_sha,
        head_branch="feature",
        path=path,
        run_attempt=1,
    )
    run["head_commit"]["id"] = facts.head_sha
    run["html_url"] = f"https://github.com/{REPO}/actions/runs/{facts.run_id}"
    run["head_repository"].update(full_name=head_repo, name="octo-repo")
    run["head_repository"]["owner"]["login"] = head_repo.split("/")[0]
    run["repository"].update(full_name=REPO)
    event["repository"].update(full_name=REPO, name="octo-repo")
    stub = copy.deepcopy(run["pull_requests"][0])
    stub["number"] = facts.pr
    stub["head"].update(ref="feature", sha=facts.head_sha)
    run["pull_requests"] = [stub] if prs and not fork else []
    return event


def comment_event(
    body: str,
    *,
    login: str = "writer",
    user_type: str = "User",
    action: str = "created",
    on_pr: bool = True,
    pr: int = 7,
    cid: int = 900,
) -> dict:
    event = fixture("event-issue_comment-created.json")
    event["action"] = action
    event["issue"]["number"] = pr
    if on_pr:
        event["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/{pr}"}
    else:
        event["issue"].pop("pull_request", None)
    event["comment"].update(id=cid, body=body)
    event["comment"]["user"].update(login=login, type=user_type)
    event["repository"].update(full_name=REPO, name="octo-repo")
    return event


@dataclass
class ActionRun:
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str
    trace: dict | None  # the action's own trace (action-<run id>-<attempt>.json)


def parse_outputs(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT heredoc blocks back into a dict (checks each block is closed)."""
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines) and lines[i]:
        name, _, delim = lines[i].partition("<<")
        end = lines.index(delim, i + 1)
        out[name] = "\n".join(lines[i + 1 : end])
        i = end + 1
    return out


# The GitHub client's waits against the loopback server: a request times out after 3 s, and no
# retry or Retry-After wait is longer than 0.1 s (REPOPILOT_GITHUB_MAX_WAIT caps every one of them,
# so faults are retried as in production without sleeping through GitHub's real waits).
# Tests of timeouts pass SHORT_TIMEOUT: 1 s (the client's smallest) and a 1 s wait, so a write
# that lands after the client gave up is found before it is retried.
CLIENT_WAITS = {"REPOPILOT_GITHUB_TIMEOUT": "3", "REPOPILOT_GITHUB_MAX_WAIT": "0.1"}
SHORT_TIMEOUT = {"REPOPILOT_GITHUB_TIMEOUT": "1", "REPOPILOT_GITHUB_MAX_WAIT": "1"}


def run_action(
    tmp: Path,
    api: str,
    event_name: str,
    event: dict,
    *,
    process: bool = False,
    env: dict[str, str] | None = None,
    **inputs: str,
) -> ActionRun:
    """Run the entry point once; `inputs` are action inputs (dry_run -> INPUT_DRY-RUN).

    In this process unless `process` is true (then `python -m repopilot action` in a subprocess).
    `env` adds or overrides runner variables (e.g. SHORT_TIMEOUT), applied after the inputs.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    event_path, output, summary = tmp / "event.json", tmp / "output.txt", tmp / "summary.md"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    output.write_text("", encoding="utf-8")
    summary.write_text("", encoding="utf-8")
    extra = env or {}
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_", "REPOPILOT_"))
    }
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "GITHUB_API_URL": api,
            "GITHUB_SERVER_URL": api.split("/api/")[0],
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_EVENT_NAME": event_name,
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_RUN_ID": "9000",
            "GITHUB_WORKFLOW_REF": f"{REPO}/.github/workflows/repopilot.yml@refs/heads/main",
            "REPOPILOT_TRACE_DIR": str(tmp / "runs"),
            **CLIENT_WAITS,
            "REPOPILOT_GITHUB_PACE": "0",  # no 1 s between writes against a loopback server
            "INPUT_GITHUB-TOKEN": "ghs_loopbacktesttoken0123456789",
            "INPUT_BOT-LOGIN": "",
            "INPUT_DRY-RUN": "false",
            "INPUT_PATTERNS": str(FIXTURES / "patterns"),
        }
    )
    for key, value in inputs.items():
        env[f"INPUT_{key.upper().replace('_', '-')}"] = value
    env.update(extra)
    # The process's environment, working directory and file descriptors are one per process:
    # a run from another thread (tests that start runs at once) gets a process of its own.
    alone = threading.current_thread() is threading.main_thread()
    if process or not alone or os.environ.get("REPOPILOT_TEST_ACTION_PROCESS") == "1":
        proc = subprocess.run(
            [sys.executable, "-m", "repopilot", "action"],
            env=env,
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=120,
        )
        returncode, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    else:
        returncode, stdout, stderr = _in_process(env, tmp)
    trace_file = tmp / "runs" / "action-9000-1.json"
    trace = json.loads(trace_file.read_text()) if trace_file.exists() else None
    return ActionRun(
        returncode,
        stdout,
        stderr,
        parse_outputs(output.read_text(encoding="utf-8")),
        summary.read_text(encoding="utf-8"),
        trace,
    )


def _in_process(env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """`repopilot.action.entry.main(env)` as the subprocess would run it: this environment and working
    directory (code that reads os.environ or "." sees what the runner gives it), no process-wide
    state from earlier runs (the ::add-mask:: registry), both output streams captured down to the
    file descriptors, a crash turned into status 1 and a traceback."""
    from repopilot.action import entry
    from repopilot.errors import InputError
    from repopilot.safety.masks import forget_masks

    # a new process knows no ::add-mask:: value: none from an earlier run, none left for the next
    forget_masks()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    try:
        with _captured(1) as out, _captured(2) as err:
            # what logging.lastResort prints in a process without handlers (pytest adds its own)
            handler = logging.StreamHandler(sys.stderr)
            handler.setLevel(logging.WARNING)
            logging.getLogger().addHandler(handler)
            try:
                code = entry.main(env)
            except InputError as exc:  # as repopilot.cli.main reports it
                print(f"repopilot: {exc}", file=sys.stderr)
                code = 2
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except Exception:
                traceback.print_exc()
                code = 1
            finally:
                logging.getLogger().removeHandler(handler)
    finally:
        forget_masks()
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _captured(fd: int) -> Iterator[io.StringIO]:
    """Everything written to `fd` (1 or 2) meanwhile, by Python or by a child process."""
    stream = sys.stdout if fd == 1 else sys.stderr
    text = io.StringIO()
    stream.flush()
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as spool:
        os.dup2(spool.fileno(), fd)
        redirect = contextlib.redirect_stdout if fd == 1 else contextlib.redirect_stderr
        try:
            with redirect(text):
                yield text
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            spool.seek(0)
            raw = spool.read().decode("utf-8", "replace")
            if raw:  # a child's output after Python's: each is whole lines
                text.seek(0, io.SEEK_END)
                if text.tell() and not text.getvalue().endswith("\n"):
                    text.write("\n")
                text.write(raw)
