"""Build the real-runs set: failed (and passing) CI logs whose tool output comes from running the
real tool on a small broken project, on this machine, never written by hand.

    python3 benchmarks/real_runs/make.py [--only ECO/NAME ...] [--out tests/fixtures/real_runs]

Each scenario is a folder `scenarios/<eco>/<name>/` holding `scenario.toml` and `project/` (the
files the steps run in). scenario.toml:

    category = "compile_error"        # the taxonomy's category; "no_failure" for a passing job
    cause = 'error\\[E0308\\]'          # Python regex: the first matching line of the failing step's
                                      # output is the line a person would point at (none when passing)
    why = "one line: what is broken"
    timeout = 120                     # seconds per step (default 120)
    [[steps]]
    name = "Build"                    # a step as a workflow names it
    run = "cargo build --offline"     # bash -e, in a fresh copy of project/

The steps run in order in a temporary copy of project/ (stdout and stderr merged, as a runner
does) and stop at the first that exits non-zero, as a job does. The output is wrapped twice:
- `gha`: a GitHub Actions raw job log (`TIMESTAMP line`, the runner's set-up lines, one
  `##[group]Run ...` block per step, `##[error]Process completed with exit code N.`, post steps);
- `gitlab`: a GitLab runner job log (`$ command` echoes, `ERROR: Job failed: exit code N` /
  `Job succeeded`), the shape of a CI system other than GitHub Actions.
The wrappers are written from the runners' documented log shapes. The only edit to the tool's
output is the temporary work directory, replaced by the runner's own workspace path.

The set is written in the gha corpus layout, so `repopilot eval gha OUT` measures it:
OUT/logs/<id>.log + OUT/labels.csv for failures, OUT/negatives/<id>.log + OUT/negatives.csv for
passing jobs. The id is `<eco>-<name>-<wrapper>`; `repo` is the scenario (both wrappers of one
scenario are one project). Nothing in this set is read by `repopilot calibrate`: it stays held out.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCENARIOS = HERE / "scenarios"
OUT = ROOT / "tests" / "fixtures" / "real_runs"
LABELS = ("id", "ecosystem", "category", "key_line_no", "key_line", "repo", "note", "tools")
NEGATIVES = ("id", "repo", "note", "tools")
# Paths of this machine a hosted runner would print as its own: the Python the steps find first
# (a virtual environment here) is the runner's tool cache.
HOST_PATHS = {
    sys.prefix: "/opt/hostedtoolcache/Python/3.11.7/x64",
    str(Path.home()) + "/": "/home/runner/",
}


@dataclass
class StepRun:
    name: str
    run: str
    lines: list[tuple[float, str]]  # (seconds since the job started, output line)
    code: int


@dataclass
class Scenario:
    eco: str
    name: str
    folder: Path
    category: str
    cause: str | None
    why: str
    timeout: float
    steps: list[dict[str, str]]

    @property
    def key(self) -> str:
        return f"{self.eco}/{self.name}"


def load(folder: Path) -> Scenario:
    data = tomllib.loads((folder / "scenario.toml").read_text(encoding="utf-8"))
    category = data["category"]
    cause = data.get("cause")
    if (category == "no_failure") != (cause is None):
        raise SystemExit(f"{folder}/scenario.toml: a cause exactly when the job fails")
    return Scenario(
        eco=folder.parent.name,
        name=folder.name,
        folder=folder,
        category=category,
        cause=cause,
        why=data.get("why", ""),
        timeout=float(data.get("timeout", 120)),
        steps=list(data["steps"]),
    )


def run_steps(sc: Scenario, work: Path, start: float) -> list[StepRun]:
    """Each step in `work` until one fails; output lines stamped as they arrive."""
    env = dict(os.environ, CI="true", NO_COLOR="1", TERM="dumb")
    env.pop("VIRTUAL_ENV", None)
    out: list[StepRun] = []
    for step in sc.steps:
        proc = subprocess.Popen(
            ["bash", "-e", "-c", step["run"]],
            cwd=work,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        lines: list[tuple[float, str]] = []
        deadline = time.monotonic() + sc.timeout
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.append((time.monotonic() - start, raw.decode("utf-8", "replace").rstrip("\r\n")))
            if time.monotonic() > deadline:
                break
        try:
            code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            code = proc.wait()
        out.append(StepRun(step["name"], step["run"], lines, code))
        if code != 0:
            break
    return out


def tool_versions(work: Path, steps: list[dict[str, str]]) -> str:
    """The versions of the tools a scenario's steps name, for the record."""
    probes = {
        "python": "python3 --version",
        "node": "node --version",
        "cargo": "cargo --version",
        "gcc": "gcc --version | head -1",
        "javac": "javac -version",
        "mvn": "mvn -v | head -1",
        "cmake": "cmake --version | head -1",
        "perl": "perl -e 'print \"perl $^V\"'",
        "prove": "prove --version",
    }
    got = []
    said = " ".join(step["run"] for step in steps)
    named = {n: c for n, c in probes.items() if n in said} or probes
    for name, cmd in named.items():
        r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=work)
        text = re.sub(r"\x1b\[[0-9;]*m", "", (r.stdout or r.stderr).strip())
        got.append(text if text.lower().startswith(name) else f"{name} {text}")
    return "; ".join(got)


def stamp(t0: dt.datetime, seconds: float) -> str:
    return (t0 + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%f") + "0Z"


def gha(runs: list[StepRun], t0: dt.datetime, workspace: str) -> tuple[list[str], int]:
    """A GitHub Actions raw job log of the runs (the runner's documented log shape), and the
    index of the last step's first output line in it."""
    repo = workspace.rsplit("/", 1)[-1]
    out: list[tuple[float, str]] = [
        (0.0, "Current runner version: '2.321.0'"),
        (0.0, "##[group]Runner Image Provisioner"),
        (0.0, "Hosted Compute Agent"),
        (0.0, "##[endgroup]"),
        (0.0, "##[group]Operating System"),
        (0.0, "Ubuntu"),
        (0.0, "24.04.1"),
        (0.0, "LTS"),
        (0.0, "##[endgroup]"),
        (0.0, "##[group]GITHUB_TOKEN Permissions"),
        (0.0, "Contents: read"),
        (0.0, "Metadata: read"),
        (0.0, "##[endgroup]"),
        (0.0, "Secret source: Actions"),
        (0.0, "Prepare workflow directory"),
        (0.0, "Prepare all required actions"),
        (0.0, "Getting action download info"),
        (
            0.0,
            "Download action repository 'actions/checkout@v4' (SHA:11bd71901bbe5b1630ceea73d27597364c9af683)",
        ),
        (0.0, "Complete job name: build"),
        (0.0, "##[group]Run actions/checkout@v4"),
        (0.0, "with:"),
        (0.0, f"  repository: example/{repo}"),
        (0.0, "  fetch-depth: 1"),
        (0.0, "##[endgroup]"),
        (0.0, "Syncing repository: example/" + repo),
        (0.0, "[command]/usr/bin/git version"),
        (0.0, "git version 2.47.1"),
        (0.0, f"[command]/usr/bin/git init {workspace}"),
        (0.0, f"Initialized empty Git repository in {workspace}/.git/"),
        (0.0, "[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main"),
        (0.0, "Switched to a new branch 'main'"),
    ]
    last = 0.0
    for r in runs:
        first, *rest = r.run.strip().splitlines() or [""]
        t = r.lines[0][0] if r.lines else last
        out.append((t, f"##[group]Run {first}"))
        out += [(t, line) for line in [first, *rest]]
        out.append((t, "shell: /usr/bin/bash -e {0}"))
        out.append((t, "##[endgroup]"))
        at = len(out)
        out += r.lines
        last = r.lines[-1][0] if r.lines else t
        if r.code != 0:
            out.append((last, f"##[error]Process completed with exit code {r.code}."))
    out += [
        (last, "Post job cleanup."),
        (last, "[command]/usr/bin/git version"),
        (last, "git version 2.47.1"),
        (last, "Cleaning up orphan processes"),
    ]
    return [f"{stamp(t0, s)} {line}" for s, line in out], at


def gitlab(runs: list[StepRun], workspace: str) -> tuple[list[str], int]:
    """A GitLab runner job log of the runs (the runner's documented log shape), and the index of
    the last step's first output line in it."""
    out = [
        "Running with gitlab-runner 17.5.3 (12030cf4)",
        "  on shared-runner-1 t1_abcdEF, system ID: s_0123456789ab",
        'Preparing the "shell" executor',
        "Using Shell (bash) executor...",
        "Preparing environment",
        "Running on runner-1...",
        "Getting source from Git repository",
        "Fetching changes with git depth set to 20...",
        f"Initialized empty Git repository in {workspace}/.git/",
        "Created fresh repository.",
        "Checking out 4f6c2a1e as detached HEAD (ref is main)...",
        "Skipping Git submodules setup",
        'Executing "step_script" stage of the job script',
    ]
    failed = None
    for r in runs:
        first, *rest = r.run.strip().splitlines() or [""]
        # the runner echoes a multi-line script entry by its first line only
        out.append(f"$ {first} # collapsed multi-line command" if rest else f"$ {first}")
        at = len(out)
        out += [line for _, line in r.lines]
        if r.code != 0:
            failed = r.code
    out.append("Cleaning up project directory and file based variables")
    out.append(f"ERROR: Job failed: exit code {failed}" if failed is not None else "Job succeeded")
    return out, at


def key_line(sc: Scenario, runs: list[StepRun], at: int) -> tuple[int, str]:
    """The 1-based log line of the first match of the scenario's cause in the failing step's
    output (which starts at log index `at`), and its text."""
    assert sc.cause is not None
    rx = re.compile(sc.cause)
    for j, (_, line) in enumerate(runs[-1].lines):
        if rx.search(line):
            return at + j + 1, line
    raise SystemExit(f"{sc.key}: cause {sc.cause!r} matches no line of step {runs[-1].name!r}")


def build(sc: Scenario, out: Path) -> list[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="rr-") as tmp:
        work = Path(tmp) / sc.name / sc.name
        shutil.copytree(sc.folder / "project", work, symlinks=True)
        t0 = dt.datetime.now(dt.UTC).replace(microsecond=0)
        runs = run_steps(sc, work, time.monotonic())
        versions = tool_versions(work, sc.steps)
        text = str(work)
    failed = runs[-1].code != 0
    if failed != (sc.category != "no_failure"):
        raise SystemExit(
            f"{sc.key}: expected {'a failure' if sc.cause else 'a pass'}, "
            f"got exit code {runs[-1].code} in step {runs[-1].name!r}"
        )
    rows = []
    for wrapper in ("gha", "gitlab"):
        workspace = (
            f"/home/runner/work/{sc.name}/{sc.name}"
            if wrapper == "gha"
            else f"/builds/example/{sc.name}"
        )
        wrapped = [
            StepRun(
                r.name, r.run, [(t, _host(line, text, workspace)) for t, line in r.lines], r.code
            )
            for r in runs
        ]
        log, at = gha(wrapped, t0, workspace) if wrapper == "gha" else gitlab(wrapped, workspace)
        ident = f"{sc.eco}-{sc.name}-{wrapper}"
        folder = out / ("logs" if failed else "negatives")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{ident}.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        row = {
            "id": ident,
            "repo": f"real-runs/{sc.eco}-{sc.name}",
            "note": sc.why,
            "tools": versions,
        }
        if failed:
            n, want = key_line(sc, wrapped, at)
            row |= {
                "ecosystem": sc.eco,
                "category": sc.category,
                "key_line_no": str(n),
                "key_line": want,
            }
        rows.append(row)
    return rows


def _host(line: str, work: str, workspace: str) -> str:
    line = line.replace(work, workspace)
    for here, runner in HOST_PATHS.items():
        line = line.replace(here, runner)
    return line


def write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, str]]) -> None:
    old = {}
    if path.exists():
        with path.open(newline="", encoding="utf-8") as fh:
            old = {r["id"]: r for r in csv.DictReader(fh)}
    old |= {r["id"]: r for r in rows}
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, columns, extrasaction="ignore")
        w.writeheader()
        for ident in sorted(old):
            w.writerow(old[ident])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--only", nargs="*", action="extend", default=None, help="ECO/NAME scenarios (default: all)"
    )
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    folders = sorted(p.parent for p in SCENARIOS.glob("*/*/scenario.toml"))
    if args.only:
        folders = [f for f in folders if f"{f.parent.name}/{f.name}" in args.only]
    fails: list[dict[str, str]] = []
    passes: list[dict[str, str]] = []
    for folder in folders:
        sc = load(folder)
        rows = build(sc, args.out)
        (fails if sc.cause else passes).extend(rows)
        print(
            f"{sc.key}: {sc.category}" + (f" key line {rows[0]['key_line_no']}" if sc.cause else "")
        )
    if fails:
        write_csv(args.out / "labels.csv", LABELS, fails)
    if passes:
        write_csv(args.out / "negatives.csv", NEGATIVES, passes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
