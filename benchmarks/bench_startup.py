"""Start-up time of `repopilot classify` on a small log, against a bare `python3 -c pass`.

Each round runs every command once, in turn (bare python, classify text, classify json), so a
machine shared with other work loads all of them alike; the medians over the rounds, the
minimums, and the ratio and difference to bare python are printed. The pattern cache is warmed
first (one untimed run), as it is on any second use.

`--python` is the interpreter to start, `python3` from PATH by default, as a user types it (here
a pyenv shim: a shell script that adds ~80 ms to every start, bare python included);
`--python "$(python3 -c 'import sys; print(sys.executable)')"` times the interpreter itself.

    python3 benchmarks/bench_startup.py --runs 21 [--log examples/pytest-failure.log]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def commands(py: str, log: str) -> dict[str, list[str]]:
    return {
        "python3 -c pass": [py, "-c", "pass"],
        "classify (text)": [py, "-m", "repopilot", "classify", log],
        "classify --format json": [py, "-m", "repopilot", "classify", "--format", "json", log],
    }


def wall(cmd: list[str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr.decode()[:300]}")
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21, help="rounds (each command once per round)")
    ap.add_argument("--log", default="examples/pytest-failure.log")
    ap.add_argument("--python", default="python3", help="interpreter (default: python3 on PATH)")
    args = ap.parse_args()
    cmds = commands(args.python, args.log)
    for cmd in cmds.values():  # warm the pattern cache and the OS file cache
        wall(cmd)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(args.runs):
        for name, cmd in cmds.items():
            times[name].append(wall(cmd))
    base = statistics.median(times["python3 -c pass"])
    print(f"{args.runs} rounds, {args.python}, log {args.log}")
    print(f"{'command':<24} {'median':>9} {'min':>9} {'x bare':>7} {'- bare':>9}")
    for name, got in times.items():
        med = statistics.median(got)
        print(
            f"{name:<24} {med * 1e3:7.0f}ms {min(got) * 1e3:7.0f}ms {med / base:6.2f}x "
            f"{(med - base) * 1e3:7.0f}ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
