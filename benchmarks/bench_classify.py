"""Throughput and memory of `repopilot classify` as a whole process, against GNU grep.

Generates the synthetic log (benchmarks/gen_log.py) once per size, then runs, in this script:
  baseline: `LC_ALL=C grep -E -c -f PATTERNS FILE` with the library's regexes translated to ERE
            (those GNU grep accepts; no attribution, no captures, no timeouts)
  repopilot: `python -m repopilot classify --format json FILE`
and reports wall time (median of N runs), MB/s, the ratio to grep, and peak RSS (wait4 rusage).

    python benchmarks/bench_classify.py --mb 100 --mb 1000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gen_log import generate  # noqa: E402

from repopilot.engine.library import load_library  # noqa: E402


def to_ere(expr: str) -> str | None:
    """Best-effort translation of a `regex` pattern to POSIX ERE with GNU extensions."""
    out = re.sub(r"\(\?P<\w+>", "(", expr)
    out = out.replace("(?:", "(").replace(r"\d", "[0-9]")
    if "(?" in out or "\\p" in out:  # inline flags, lookarounds, Unicode classes: not ERE
        return None
    return out


def grep_patterns(path: Path) -> int:
    lines = []
    for p in load_library():
        for r in p.regexes:
            ere = to_ere(r.pattern)
            if not ere:
                continue
            check = subprocess.run(["grep", "-E", "-e", ere], input=b"", capture_output=True)
            if check.returncode in (0, 1) and not check.stderr:
                lines.append(ere)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int, bytes]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = proc.stdout.read()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {err.decode()[:300]}")
    return wall, usage.ru_maxrss, out  # ru_maxrss is KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, action="append", help="log size in MB (repeatable)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=None, help="where to keep generated logs (default: temp)")
    a = ap.parse_args()
    sizes = a.mb or [100]
    workdir = Path(a.dir or tempfile.mkdtemp(prefix="repopilot-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, LC_ALL="C", PYTHONPATH=str(HERE.parent))
    pats = workdir / "patterns.ere"
    n = grep_patterns(pats)
    print(f"grep baseline: {n} of the library's regexes as ERE")
    report = []
    for mb in sizes:
        log = workdir / f"synthetic-{mb}mb.log"
        if not log.exists():
            generate(str(log), mb)
        size_mb = log.stat().st_size / 1e6
        g = [run(["grep", "-E", "-c", "-f", str(pats), str(log)], env) for _ in range(a.runs)]
        r = [
            run([sys.executable, "-m", "repopilot", "classify", "--format", "json", str(log)], env)
            for _ in range(a.runs)
        ]
        verdict = json.loads(r[-1][2])["results"][0]
        gw = statistics.median(x[0] for x in g)
        rw = statistics.median(x[0] for x in r)
        row = {
            "mb": round(size_mb, 1),
            "grep_s": round(gw, 3),
            "repopilot_s": round(rw, 3),
            "repopilot_mb_s": round(size_mb / rw, 1),
            "grep_mb_s": round(size_mb / gw, 1),
            "ratio_to_grep": round(rw / gw, 2),
            "peak_rss_mb": round(max(x[1] for x in r) / 1024, 1),
            "category": verdict["category"],
            "evidence_line": verdict["evidence"][0]["line"] if verdict["evidence"] else None,
        }
        report.append(row)
        print(json.dumps(row))
    print(json.dumps({"results": report}, indent=1))


if __name__ == "__main__":
    main()
