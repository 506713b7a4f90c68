"""Issue 23, "cheap when idle": a green run with nothing to resolve installs nothing, the analyze
job checks out nothing without an LLM, the README shows a one-job `mode: all` workflow, and the
third-party actions are current majors pinned by full SHA. The action's first step (a bash
script) runs for real against the loopback GitHub."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.loopback.github_server import GitHubServer, State
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration
ACTION = REPO_ROOT / "action.yml"
EXAMPLES = sorted((REPO_ROOT / "examples" / "workflows").glob("*.yml"))
REPO = "octo-org/octo-repo"
# the current majors (checked against each action's tags when this was written): Node 24
CURRENT = {
    "actions/checkout": 7,
    "actions/setup-python": 7,
    "actions/upload-artifact": 7,
    "actions/download-artifact": 8,
    "actions/cache": 5,
}
USES = re.compile(r"uses:\s*(actions/[\w-]+)@(\S+)\s*#\s*v(\d+)\.")


def _work_step() -> dict:
    doc = yaml.safe_load(ACTION.read_text())
    [step] = [s for s in doc["runs"]["steps"] if s.get("id") == "work"]
    return step


def _gate(tmp_path: Path, api: str, run: dict) -> str:
    if shutil.which("jq") is None or shutil.which("curl") is None:
        pytest.skip("jq and curl are needed to run the action's first step (the runners have them)")
    event, output = tmp_path / "event.json", tmp_path / "output"
    event.write_text(json.dumps({"workflow_run": run}))
    output.write_text("")
    env = {
        "PATH": os.environ["PATH"],
        "GITHUB_EVENT_NAME": "workflow_run",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_API_URL": api,
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_OUTPUT": str(output),
        "TOKEN": "ghs_loopbacktesttoken",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", _work_step()["run"]], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    [line] = output.read_text().splitlines()
    return line.removeprefix("idle=")


def _run(conclusion: str = "success", prs: tuple[int, ...] = (7,), event: str = "push") -> dict:
    return {
        "conclusion": conclusion,
        "event": event,
        "pull_requests": [{"number": n} for n in prs],
    }


def test_a_green_run_with_nothing_to_resolve_installs_nothing(tmp_path: Path) -> None:
    state = State()
    with GitHubServer(state) as gh:
        assert _gate(tmp_path, gh.url, _run(prs=())) == "true"  # a push to main
        assert state.requests == [], "no PR: not even an API request"
        state.add_comment(7, "LGTM", "someone")
        assert _gate(tmp_path, gh.url, _run()) == "true"  # a PR without a RepoPilot comment
        assert state.calls("GET", rf"/repos/{REPO}/issues/7/comments")
        state.add_comment(7, '<!-- repopilot:{"v":1} -->\nfailed', "repopilot-bot")
        assert _gate(tmp_path, gh.url, _run()) == "false"  # the comment to mark resolved
        # a fork's run, and the run dispatched after an apply, list no PR number: looked up
        assert _gate(tmp_path, gh.url, _run(prs=(), event="pull_request")) == "false"
        assert _gate(tmp_path, gh.url, _run(prs=(), event="workflow_dispatch")) == "false"
        assert _gate(tmp_path, gh.url, _run("failure")) == "false"  # a failure is always work
    assert _gate(tmp_path, "http://127.0.0.1:9", _run()) == "false", "in doubt, run"


def test_every_later_step_waits_for_the_gate() -> None:
    steps = yaml.safe_load(ACTION.read_text())["runs"]["steps"]
    assert steps[0]["id"] == "work"
    for step in steps[1:]:
        assert step.get("if") == "steps.work.outputs.idle != 'true'", step["name"]


def test_resolve_starts_no_job_for_a_run_without_a_pull_request() -> None:
    doc = yaml.safe_load((REPO_ROOT / "examples" / "workflows" / "repopilot.yml").read_text())
    cond = " ".join(doc["jobs"]["resolve"]["if"].split())
    assert "toJSON(github.event.workflow_run.pull_requests) != '[]'" in cond
    assert "github.event.workflow_run.event == 'pull_request'" in cond  # forks list no number
    assert "github.event.workflow_run.event == 'workflow_dispatch'" in cond  # after an apply


def test_analyze_checks_out_only_for_an_llm() -> None:
    doc = yaml.safe_load((REPO_ROOT / "examples" / "workflows" / "repopilot.yml").read_text())
    steps = doc["jobs"]["analyze"]["steps"]
    [checkout] = [s for s in steps if s.get("uses", "").startswith("actions/checkout@")]
    assert "vars.REPOPILOT_LLM" in checkout["if"]
    [triage] = [s for s in steps if s.get("with", {}).get("mode") == "analyze"]
    # no `head` to read unless that checkout ran (an LLM, and a same-repository PR)
    assert (
        checkout["id"] in triage["with"]["repo-path"] and "outcome" in triage["with"]["repo-path"]
    )


@pytest.mark.parametrize("path", [ACTION, *EXAMPLES], ids=lambda p: p.name)
def test_third_party_actions_are_current_majors_pinned_by_sha(path: Path) -> None:
    text = path.read_text()
    found = USES.findall(text)
    assert found or "actions/" not in text
    for name, ref, major in found:
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{name} not pinned by a full SHA"
        assert int(major) >= CURRENT[name], (
            f"{name} v{major}: the current major is v{CURRENT[name]}"
        )


def test_the_readme_shows_a_single_mode_all_job() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    snippets = [yaml.safe_load(b) for b in blocks if "mode: all" in b]
    assert snippets, "a ```yaml block with mode: all"
    doc = snippets[0]
    on = doc.get("on", doc.get(True))
    assert set(on) >= {"workflow_run", "issue_comment"}
    [job] = doc["jobs"].values()
    [step] = job["steps"]
    assert step["with"]["mode"] == "all"
    assert re.fullmatch(r"[\w-]+/repopilot@[0-9a-f]{40}", step["uses"])
    assert job["permissions"]["contents"] == "write" and doc["permissions"] == {}
