"""`repopilot classify` on one `gh run view --log` file of many jobs against the same jobs as
separate files: the two should take the same time (the reader splits the gh file in one pass).

Generates N job logs with benchmarks/gen_log.py (1 MB each, one seed per job), writes them also as
one gh file (`<job name>\\t<step name>\\t<timestamp> <line>`, the step column following each
`##[group]Run` line as gh's does), and times one `repopilot classify --format json` process on
each input, alternating, median of --runs. Both runs must give the same verdicts per job.
The CPU seconds of each run (its processes' user + system time) are printed too: on a busy
machine the wall-clock ratio drifts, the CPU ratio much less.

    python benchmarks/bench_ghcli.py [--jobs-in-run 50] [--mb-per-job 1] [--runs 3] [--src DIR]

`--src DIR` runs the classify processes with DIR first on PYTHONPATH (another checkout's code:
a before/after figure from one script).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_log import generate  # noqa: E402

_GROUP = " ##[group]Run "


def make_inputs(where: Path, jobs: int, mb: int) -> tuple[Path, list[Path]]:
    """The separate job logs and the gh file holding all of them (made once per directory)."""
    files = [where / f"job-{k:02d}.log" for k in range(jobs)]
    gh = where / "run.gh.log"
    for k, f in enumerate(files):
        if not f.exists():
            generate(str(f), mb, seed=100 + k)
    if not gh.exists():
        with open(gh, "w", encoding="utf-8", newline="\n") as out:
            for k, f in enumerate(files):
                name, step = f"build ({k:02d})", "Set up job"
                with open(f, encoding="utf-8") as src:
                    buf = []
                    for line in src:
                        at = line.find(_GROUP)
                        if at > 0:  # gh's step column names the step the runner started here
                            step = "Run " + line[at + len(_GROUP) :].strip()
                        buf.append(f"{name}\t{step}\t{line}")
                        if len(buf) >= 20000:
                            out.write("".join(buf))
                            buf.clear()
                    out.write("".join(buf))
    return gh, files


def _cpu() -> float:
    """CPU seconds of the finished child processes (and the processes they waited for)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def classify(paths: list[Path], src: str | None) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the JSON output) of one classify process on `paths`."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    cpu, t = _cpu(), time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "repopilot", "classify", "--format", "json", *map(str, paths)],
        capture_output=True,
        env=env,
        cwd=src or None,
    )
    took, cpu = time.perf_counter() - t, _cpu() - cpu
    if proc.returncode not in (0, 1):
        raise SystemExit(proc.stderr.decode(errors="replace"))
    return took, cpu, json.loads(proc.stdout)


def _verdicts(results: dict) -> list[tuple]:
    """(category, pattern, evidence texts) per job, in job order (line numbers differ: the gh
    file numbers its physical lines, all jobs' together)."""
    return [
        (r["category"], r["pattern_id"], tuple(e["text"] for e in r["evidence"]))
        for r in results["results"]
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs-in-run", type=int, default=50)
    ap.add_argument("--mb-per-job", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", help="where to keep the generated logs (default: temp)")
    ap.add_argument("--src", help="a checkout whose code runs the classify processes")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ghcli-") as tmp:
        where = Path(a.dir) if a.dir else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        gh, files = make_inputs(where, a.jobs_in_run, a.mb_per_job)
        size = gh.stat().st_size / 1e6
        times: dict[str, list[float]] = {"gh": [], "separate": []}
        cpus: dict[str, list[float]] = {"gh": [], "separate": []}
        got: dict[str, dict] = {}
        for _ in range(a.runs):
            for kind, paths in (("gh", [gh]), ("separate", files)):
                t, cpu, got[kind] = classify(paths, a.src)
                times[kind].append(t)
                cpus[kind].append(cpu)
        same = _verdicts(got["gh"]) == _verdicts(got["separate"])
        gh_t, sep_t = statistics.median(times["gh"]), statistics.median(times["separate"])
        gh_c, sep_c = statistics.median(cpus["gh"]), statistics.median(cpus["separate"])
        ratios = sorted(g / s for g, s in zip(times["gh"], times["separate"], strict=True))
        print(f"{a.jobs_in_run} jobs, gh file {size:.1f} MB; code: {a.src or 'installed'}")
        for kind, t, c in (("gh file", gh_t, gh_c), ("separate files", sep_t, sep_c)):
            runs = ", ".join(f"{x:.2f}" for x in times["gh" if kind == "gh file" else "separate"])
            print(f"  {kind + ':':15} {t:6.2f} s  {size / t:6.1f} MB/s  cpu {c:5.2f} s  [{runs}]")
        spread = ", ".join(f"{r:.2f}" for r in ratios)
        print(f"  gh / separate:  {gh_t / sep_t:.2f}  (per run: {spread}; cpu {gh_c / sep_c:.2f})")
        print(f"  same verdicts and evidence: {same}")


if __name__ == "__main__":
    main()
