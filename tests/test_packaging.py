"""Static checks of the Action's packaging (no Docker engine or network needed).

action.yml declares exactly the inputs the code reads and the outputs it writes; the image is
pinned and installs only hash-checked wheels; the example workflow keeps the LLM key and the
write scope in different jobs and never interpolates expressions into shell.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
DOCKERFILE = ROOT / "Dockerfile"
LOCK = ROOT / "requirements.lock"
WORKFLOWS = sorted((ROOT / "examples" / "workflows").glob("*.yml"))
# the workflow_run examples (the other one is a job of the user's own CI: test_adoption_packaging)
RUN_WORKFLOWS = [p for p in WORKFLOWS if "workflow_run:" in p.read_text(encoding="utf-8")]
EXPR = re.compile(r"\$\{\{")
SHA_PIN = re.compile(r"^[^@\s]+@[0-9a-f]{40}$")
WRITE_SCOPES = {"contents", "pull-requests", "issues", "actions"}  # actions: dispatch CI (issue 23)
LLM_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST")


def load_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def on_of(doc: dict) -> dict:
    return doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` key as true


def names_read_by_code() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "repopilot").rglob("*.py"):
        names |= set(re.findall(r"get_input\(\s*\w+,\s*\"([a-z-]+)\"", path.read_text()))
    return names


# --- action.yml -------------------------------------------------------------------------------


@pytest.mark.unit
def test_action_metadata() -> None:
    action = load_yaml(ACTION)
    assert action["name"] and action["description"]
    assert action["branding"]["icon"] and action["branding"]["color"]
    assert action["runs"]["using"] == "composite"  # why: README "Why a composite action"
    outputs = {"category", "decided-by", "comment-url", "proposal-id", "origin"}
    assert set(action["outputs"]) == outputs
    for name, spec in action["inputs"].items():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name), name
        assert spec.get("description"), name
        assert "default" in spec and isinstance(spec["default"], str), name
    contract = {"github-token", "llm", "model", "escalate", "patterns", "repo-path", "approvers"}
    contract |= {"signing-key", "bot-login", "dry-run", "mode", "result-file", "origin-budget"}
    contract |= {"memory"}  # issue 28: the repository's memory (docs/MEMORY.md)
    assert set(action["inputs"]) == contract
    assert action["inputs"]["github-token"]["default"] == "${{ github.token }}"
    assert action["inputs"]["mode"]["default"] == "all"
    assert action["inputs"]["dry-run"]["default"] == "false"


@pytest.mark.unit
def test_action_inputs_are_exactly_what_the_code_reads() -> None:
    read = names_read_by_code()
    if not read:
        pytest.skip("repopilot/ reads no action inputs yet")
    declared = set(load_yaml(ACTION)["inputs"])
    assert declared - read == set(), "declared in action.yml but never read"
    assert read - declared == set(), "read by the code but missing from action.yml"


@pytest.mark.unit
def test_action_outputs_are_written_by_the_code() -> None:
    source = "".join(p.read_text() for p in (ROOT / "repopilot").rglob("*.py"))
    if "write_outputs" not in source:
        pytest.skip("the action does not write outputs yet")
    for name in load_yaml(ACTION)["outputs"]:
        assert f'"{name}"' in source, name


# --- Dockerfile -------------------------------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    rows = [line.strip() for line in text.splitlines()]
    return [tuple(r.split(None, 1)) for r in rows if r and not r.startswith("#")]


@pytest.mark.unit
def test_dockerfile_base_is_an_exact_slim_tag() -> None:
    froms = [arg for op, arg in instructions() if op == "FROM"]
    assert len(froms) == 1
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", froms[0])


@pytest.mark.unit
def test_dockerfile_entrypoint_is_exec_form_and_isolated() -> None:
    (entry,) = [arg for op, arg in instructions() if op == "ENTRYPOINT"]
    argv = json.loads(entry)
    assert argv[0] == "python" and argv[-3:] == ["-m", "repopilot", "action"]
    assert "-I" in argv  # see test_isolated_mode_ignores_a_package_in_the_working_directory
    assert not any(op in ("CMD", "USER", "SHELL") for op, _ in instructions())


@pytest.mark.unit
def test_dockerfile_installs_only_locked_hashed_wheels() -> None:
    runs = [arg for op, arg in instructions() if op == "RUN"]
    pip = [r for r in runs if "pip install" in r]
    assert any("--no-deps --require-hashes -r requirements.lock" in r for r in pip)
    assert all("--no-deps" in r for r in pip) and not any(" -e " in r for r in pip)
    assert any("--no-build-isolation ." in r for r in pip)


@pytest.mark.unit
def test_dockerfile_copies_exist_and_are_not_dockerignored() -> None:
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    allowed = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    assert "*" in ignore
    for op, arg in instructions():
        if op != "COPY":
            continue
        for src in arg.split()[:-1]:
            assert src in allowed, f"{src} is excluded by .dockerignore"
            if src == "README.md" and not (ROOT / src).exists():
                pytest.fail("README.md is missing: pyproject.toml and the Dockerfile need it")
            assert (ROOT / src).exists(), src


@pytest.mark.integration
def test_isolated_mode_ignores_a_package_in_the_working_directory(tmp_path: Path) -> None:
    """Why the ENTRYPOINT has -I: `python -m pkg` runs `pkg` from the working directory."""
    (tmp_path / "rp_probe").mkdir()
    (tmp_path / "rp_probe" / "__main__.py").write_text("print('ran from the workspace')\n")
    plain = subprocess.run(
        [sys.executable, "-m", "rp_probe"], cwd=tmp_path, capture_output=True, text=True
    )
    isolated = subprocess.run(
        [sys.executable, "-I", "-m", "rp_probe"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "ran from the workspace" in plain.stdout
    assert isolated.returncode != 0 and "ran from the workspace" not in isolated.stdout


# --- requirements.lock ------------------------------------------------------------------------


def lock_entries() -> dict[str, list[str]]:
    text = LOCK.read_text().replace("\\\n", " ")
    entries: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--"):
            assert line == "--only-binary :all:", f"unexpected option in the lock: {line}"
            continue
        spec, *hashes = line.split()
        name, _, version = spec.partition("==")
        assert version and re.fullmatch(r"[\w.+!-]+", version), f"not pinned: {spec}"
        assert hashes and all(re.fullmatch(r"--hash=sha256:[0-9a-f]{64}", h) for h in hashes), spec
        entries[re.sub(r"[-_.]+", "-", name.lower())] = hashes
    return entries


@pytest.mark.unit
def test_lock_pins_every_runtime_dependency_with_hashes() -> None:
    entries = lock_entries()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in ("fast", "openai", "ollama"):  # the Action runs the set engine
        wanted += project["optional-dependencies"][extra]
    for req in wanted:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower())
        assert name in entries, f"{name} is a runtime dependency but not in requirements.lock"
    assert "setuptools" in entries  # the build backend, for --no-build-isolation


# --- example workflow -------------------------------------------------------------------------


def jobs_of(path: Path) -> dict:
    return load_yaml(path)["jobs"]


def steps_of(job: dict) -> list[dict]:
    return job.get("steps", [])


def job_text(job: dict) -> str:
    return yaml.safe_dump(job)


@pytest.mark.unit
@pytest.mark.parametrize("path", RUN_WORKFLOWS, ids=lambda p: p.name)
def test_workflow_pins_and_permissions(path: Path) -> None:
    doc = load_yaml(path)
    assert doc["permissions"] == {}
    on = on_of(doc)
    assert on["workflow_run"]["types"] == ["completed"] and on["workflow_run"]["workflows"]
    assert on["issue_comment"]["types"] == ["created"]
    for job in doc["jobs"].values():
        assert "permissions" in job, "every job states its own permissions"
        for step in steps_of(job):
            if "uses" in step:
                assert SHA_PIN.match(step["uses"]), f"not pinned by commit SHA: {step['uses']}"
            if "run" in step:
                assert not EXPR.search(step["run"]), "no ${{ }} inside run: (use env:)"


@pytest.mark.unit
@pytest.mark.parametrize("path", RUN_WORKFLOWS, ids=lambda p: p.name)
def test_llm_key_and_write_scope_never_meet(path: Path) -> None:
    jobs = jobs_of(path)
    with_key = [n for n, j in jobs.items() if any(k in job_text(j) for k in LLM_ENV)]
    writers = [
        n for n, j in jobs.items() if any(v == "write" for v in (j["permissions"] or {}).values())
    ]
    assert with_key and writers
    assert not set(with_key) & set(writers)
    for name in with_key:
        assert jobs[name]["permissions"] == {"actions": "read", "contents": "read"}, name
        checkout = [
            s for s in steps_of(jobs[name]) if s.get("uses", "").startswith("actions/checkout@")
        ]
        assert checkout, "the analyze job checks out the failing head for the read-only tools"
        for step in checkout:
            assert step["with"]["persist-credentials"] is False
            assert step["with"]["ref"] == "${{ github.event.workflow_run.head_sha }}"
    for name in writers:
        job = jobs[name]
        assert set(job["permissions"]) <= WRITE_SCOPES, name
        assert not any(s.get("uses", "").startswith("actions/checkout@") for s in steps_of(job))
        for step in steps_of(job):
            assert step.get("with", {}).get("llm", "none") == "none", name
    modes = {
        n: s["with"]["mode"]
        for n, j in jobs.items()
        for s in steps_of(j)
        if "mode" in s.get("with", {})
    }
    assert all(modes[n] == "analyze" for n in with_key) and all(modes[n] == "post" for n in writers)


# --- the linters CI runs ------------------------------------------------------------------------


def run_tool(*argv: str) -> subprocess.CompletedProcess:
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed (pip install zizmor check-jsonschema)")
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.integration
def test_zizmor_offline_is_clean() -> None:
    done = run_tool("zizmor", "--offline", "action.yml", *map(str, WORKFLOWS))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.integration
@pytest.mark.parametrize(
    "schema, files",
    [
        ("vendor.github-workflows", [str(p) for p in WORKFLOWS]),
        ("vendor.github-actions", ["action.yml"]),
    ],
)
def test_check_jsonschema(schema: str, files: list[str]) -> None:
    done = run_tool("check-jsonschema", "--builtin-schema", schema, *files)
    assert done.returncode == 0, done.stdout + done.stderr
