"""Release-ready packaging (issue 13): the composite action passes every input through and maps
every output, the examples work as copied and pin a real release, the Dockerfile pins nothing
that vanishes, and the README links only inside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

import pytest
import yaml

from repopilot.action import runner
from repopilot.settings import Settings
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit
ROOT = REPO_ROOT
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXAMPLES = sorted((ROOT / "examples" / "workflows").glob("*.yml"))
OWN_USES = re.compile(r"uses: OWNER/repopilot@(\S+) # (v\d+\.\d+\.\d+)\s*$", re.M)
EXPR = re.compile(r"\$\{\{")


def steps() -> list[dict]:
    return ACTION["runs"]["steps"]


def run_step() -> dict:
    [step] = [s for s in steps() if s.get("id") == "run"]
    return step


def test_composite_action_passes_every_input_and_maps_every_output() -> None:
    env = run_step()["env"]
    for name in ACTION["inputs"]:
        key = f"INPUT_{name.upper().replace('-', '_')}"
        assert env.get(key) == f"${{{{ inputs.{name} }}}}", name
    for name, spec in ACTION["outputs"].items():
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}", name
    assert " -I " in run_step()["run"] and "-m repopilot action" in run_step()["run"]


def test_the_runner_reads_the_composite_inputs_as_the_docker_ones() -> None:
    """Composite actions get no INPUT_* variables from the runner: action.yml sets them, with
    underscores; runner.read_inputs must read them exactly as the hyphenated Docker names."""
    values = {name: f"v-{name}" for name in ACTION["inputs"]}
    values.update({"llm": "openai", "mode": "post", "escalate": "fixable", "dry-run": "true"})
    values.update({"approvers": "admin maintain", "origin-budget": "5", "memory": "false"})
    base = {"GITHUB_REPOSITORY": "o/r", "GITHUB_EVENT_NAME": "workflow_run"}
    composite = dict(base)
    for key, expr in run_step()["env"].items():
        name = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", expr).group(1)
        composite[key] = values[name]
    docker = dict(base, **{f"INPUT_{n.upper()}": v for n, v in values.items()})
    assert runner.read_inputs(Settings.from_env(composite)) == runner.read_inputs(
        Settings.from_env(docker)
    )


def test_every_step_of_the_action_is_pinned_and_no_expression_reaches_a_shell() -> None:
    for step in steps():
        if "uses" in step:
            assert re.fullmatch(r"[^@\s]+@[0-9a-f]{40}", step["uses"]), step["uses"]
        if "run" in step:
            assert not EXPR.search(step["run"]), step.get("name")
            assert step["shell"] == "bash"


def test_dockerfile_pins_no_debian_version_and_no_unverified_digest() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    installs = re.findall(r"apt-get install[^\n&]*", text)
    assert installs and not any(re.search(r"\S=\S", i) for i in installs), installs
    [base] = re.findall(r"^FROM (\S+)", text, re.M)
    assert "@sha256:" not in base, "a digest is pinned only once verified (see the Dockerfile)"


def test_examples_work_as_copied_and_pin_one_release() -> None:
    pins = set()
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        doc = yaml.safe_load(text)
        found = OWN_USES.findall(text)
        assert found, path.name
        pins |= set(found)
        for name, job in doc["jobs"].items():
            for step in job.get("steps", []):
                with_ = step.get("with", {})
                if step.get("uses", "").startswith("OWNER/repopilot@"):
                    llm = with_.get("llm", "none")
                    assert llm in ("none", "${{ vars.REPOPILOT_LLM || 'none' }}"), (path, name)
                    if with_.get("mode") == "post":
                        assert with_["signing-key"] == "${{ secrets.REPOPILOT_SIGNING_KEY }}"
    assert len(pins) == 1, f"every example pins the same release: {pins}"
    [(sha, tag)] = pins
    assert re.fullmatch(r"[0-9a-f]{40}", sha), "a full commit SHA, with the tag in a comment"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert tag == f"v{version}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"# {tag}" in readme
    if shutil.which("git") and (ROOT / ".git").exists():
        done = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            assert done.stdout.strip() == sha, f"the pinned SHA is the commit of {tag}"


def test_workflow_run_example_has_a_per_pr_group_traces_and_a_resolve_job() -> None:
    doc = yaml.safe_load((ROOT / "examples" / "workflows" / "repopilot.yml").read_text())
    group = doc["concurrency"]["group"]
    assert "pull_requests[0].number" in group and "issue.number" in group
    assert doc["concurrency"]["cancel-in-progress"] is False
    uploads = [
        s for s in doc["jobs"]["analyze"]["steps"] if s.get("with", {}).get("path") == ".runs/"
    ]
    [traces] = uploads
    assert traces["with"]["retention-days"] <= 7 and traces["with"]["include-hidden-files"]
    assert traces["if"] == "always()"
    resolve = doc["jobs"]["resolve"]
    assert "conclusion == 'success'" in resolve["if"]
    assert resolve["permissions"] == {"issues": "write", "pull-requests": "read"}


def test_same_workflow_example_is_a_job_of_the_ci() -> None:
    doc = yaml.safe_load((ROOT / "examples" / "workflows" / "ci-with-repopilot.yml").read_text())
    on = doc.get("on", doc.get(True))
    assert set(on) == {"push", "pull_request"} and doc["permissions"] == {}
    job = doc["jobs"]["repopilot"]
    assert job["needs"] == ["test"] and job["if"] == "failure()"
    assert job["permissions"]["actions"] == "read" and "concurrency" in job
    assert not any(k in yaml.safe_dump(job) for k in ("OPENAI_API_KEY", "OLLAMA_HOST"))


def test_release_files_and_readme_links_stay_in_the_repository() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["requires-python"] == ">=3.11"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{project['version']}]" in changelog
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11 or newer" in readme
    for target in re.findall(r"\]\(<?([^)>\s]+)>?\)", readme):
        if target.startswith(("http://", "https://", "#", "mailto:")):
            continue
        assert not target.startswith(("/", "..")), target
        assert (ROOT / target).exists(), f"README links {target}, which is not in the repository"
    release = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())
    on = release.get("on", release.get(True))
    assert on["push"]["tags"] and "git/refs/tags/$major" in yaml.safe_dump(release)


def test_workflow_run_example_never_checks_out_a_forks_code() -> None:
    # SECURITY.md threat 1 (pwn request): the privileged workflow_run jobs check out no fork code.
    # actions/checkout v7 refuses it unless `allow-unsafe-pr-checkout`; zizmor flags that opt-in.
    doc = yaml.safe_load((ROOT / "examples" / "workflows" / "repopilot.yml").read_text())
    checkouts = [
        (name, step)
        for name, job in doc["jobs"].items()
        for step in job.get("steps", [])
        if str(step.get("uses", "")).startswith("actions/checkout@")
    ]
    assert checkouts, "the analyze job checks out a same-repository head for the LLM's tools"
    for name, step in checkouts:
        given = step.get("with", {})
        assert name == "analyze", f"{name} holds a write token and must check out nothing"
        assert given.get("persist-credentials") is False
        assert "allow-unsafe-pr-checkout" not in given
        assert "repository" not in given, "only this repository is ever checked out"
        if "head_sha" in str(given.get("ref", "")):
            assert "head_repository.full_name == github.repository" in step["if"]
    triage = next(s for s in doc["jobs"]["analyze"]["steps"] if s.get("name") == "Triage")
    assert triage["with"]["repo-path"] == "${{ steps.head.outcome == 'success' && 'head' || '' }}"
