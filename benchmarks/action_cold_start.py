"""Cold start of the composite action, as its steps run on a runner: an empty venv, the
hash-locked wheels, the package, then `python -I -u -m repopilot action` on a failed
`workflow_run` against the loopback GitHub (tests/loopback), until the comment is posted.

    python benchmarks/action_cold_start.py [--runs 2] [--pip-cache DIR]

Each phase is timed separately (venv, locked wheels, package, first comment). The first run fills
the pip cache given (as the action's cache step would restore it); later runs reuse it. Not
measured here: actions/setup-python (the runner's tool cache holds 3.11) and the cache restore.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback.github_action import REPO, run_event, seed  # noqa: E402
from tests.loopback.github_server import GitHubServer, State  # noqa: E402


def source_copy(dest: Path) -> Path:
    """What `$GITHUB_ACTION_PATH` holds: the repository at the pinned commit (no caches)."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "requirements.lock"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("repopilot", "patterns"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def timed(argv: list[str], **kw) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): on a busy machine the CPU time is the figure
    that carries over to an idle runner."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, **kw)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def one_run(work: Path, action_path: Path, pip_cache: Path) -> dict[str, tuple[float, float]]:
    venv = work / "repopilot-venv"
    env = {**os.environ, "PIP_CACHE_DIR": str(pip_cache), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q"]
    pip += ["--no-deps", "--no-compile"]
    out = {"venv": timed([sys.executable, "-m", "venv", "--without-pip", str(venv)])}
    lock = str(action_path / "requirements.lock")
    out["locked wheels"] = timed([*pip, "--require-hashes", "-r", lock], env=env)
    out["package"] = timed([*pip, "--no-build-isolation", str(action_path)], env=env)
    state = State(bot="repopilot-bot")
    with GitHubServer(state) as server:
        facts = seed(state)
        event = work / "event.json"
        event.write_text(json.dumps(run_event(facts)), encoding="utf-8")
        (work / "out").write_text("")
        runner_env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(work),
            "GITHUB_API_URL": server.url,
            "GITHUB_SERVER_URL": server.url,
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_EVENT_NAME": "workflow_run",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_OUTPUT": str(work / "out"),
            "GITHUB_RUN_ID": "9000",
            "GITHUB_WORKSPACE": str(work),
            "INPUT_GITHUB_TOKEN": "ghs_loopbacktesttoken0123456789",
            "INPUT_MODE": "all",
            "INPUT_LLM": "none",
            "REPOPILOT_GITHUB_PACE": "0",
        }
        argv = [str(venv / "bin" / "python"), "-I", "-u", "-m", "repopilot", "action"]
        out["first comment"] = timed(argv, env=runner_env, cwd=work, stdout=subprocess.DEVNULL)
        assert any(c["login"] == "repopilot-bot" for c in state.comments.values()), "no comment"
    out["total"] = (sum(w for w, _ in out.values()), sum(c for _, c in out.values()))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--pip-cache", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="repopilot-cold-") as tmp:
        base = Path(tmp)
        action_path = source_copy((base / "action").resolve())
        cache = args.pip_cache or base / "pip-cache"
        for i in range(args.runs):
            work = base / f"run{i}"
            work.mkdir()
            got = one_run(work, action_path, cache)
            load = os.getloadavg()[0]
            phases = ", ".join(f"{k} {w:.1f} s ({c:.1f} s CPU)" for k, (w, c) in got.items())
            print(f"run {i + 1}: {phases} (load average {load:.1f}, {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
