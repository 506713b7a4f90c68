"""Throughput and memory of `repopilot classify` as a whole process, against GNU grep.

Inputs, each timed as one `repopilot classify --format json ...` process (median of N runs):
  quiet:   the synthetic log of benchmarks/gen_log.py, once per --mb size
  dense:   the same generator with --dense (1 line in 6 holds an error-like word), per --dense-mb
  real:    every *.log under ../shared/corpus (or --corpus DIR) in one command; skipped if absent
  realcat: the same logs concatenated into one file
against `LC_ALL=C grep -E -c -f PATTERNS FILE...` with the library's regexes translated to ERE in
this script (those GNU grep accepts; no attribution, no captures, no timeouts; --grep-first N
keeps the first N, as GNU grep's DFA does not finish the real logs with all of them). Reports wall
time, MB/s, the ratio to grep and peak RSS (wait4 rusage, the parent process).

    python benchmarks/bench_classify.py --mb 100 --mb 1000 --dense-mb 100 --runs 3
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
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYTHON = [sys.executable, "-m", "repopilot"]
# --without-fast: RepoPilot as a plain install runs it (google-re2 and hyperscan unimportable)
WITHOUT_FAST = [
    sys.executable,
    "-c",
    "import sys, runpy; sys.modules['re2'] = None; sys.modules['hyperscan'] = None; "
    "runpy.run_module('repopilot', run_name='__main__', alter_sys=True)",
]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gen_log import generate  # noqa: E402

from repopilot.engine.library.loader import load_library  # noqa: E402


def to_ere(expr: str) -> str | None:
    """Best-effort translation of a `regex` pattern to POSIX ERE with GNU extensions."""
    out = re.sub(r"\(\?P<\w+>", "(", expr)
    out = out.replace("(?:", "(").replace(r"\d", "[0-9]")
    if "(?" in out or "\\p" in out:  # inline flags, lookarounds, Unicode classes: not ERE
        return None
    return out


def grep_patterns(path: Path, first: int | None = None) -> int:
    """The library as ERE, one per line (only the `first` N that GNU grep accepts, if given)."""
    lines: list[str] = []
    for p in load_library():
        for r in p.regexes:
            ere = to_ere(r.pattern)
            if not ere:
                continue
            check = subprocess.run(["grep", "-E", "-e", ere], input=b"", capture_output=True)
            if check.returncode in (0, 1) and not check.stderr:
                lines.append(ere)
        if first is not None and len(lines) >= first:
            del lines[first:]
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def run(
    cmd: list[str], env: dict[str, str], limit: float | None = None
) -> tuple[float, int, bytes]:
    """Wall time, peak RSS (KiB) and stdout; with `limit`, a run still going then is stopped
    and its time reported as infinite (GNU grep on ~800 regexes can take many minutes)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    timer = threading.Timer(limit, proc.kill) if limit else None
    if timer:
        timer.start()
    out = proc.stdout.read()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    if timer:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if limit and proc.returncode == -9:
        return float("inf"), usage.ru_maxrss, b""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {err.decode()[:300]}")
    return wall, usage.ru_maxrss, out  # ru_maxrss is KiB on Linux


GREP_SLOW = 20.0  # seconds
GREP_LIMIT = 120.0  # seconds: a grep still running then is reported as "> 120 s"


def corpus_logs(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.log") if p.is_file())


def measure(
    name: str, files: list[Path], pats: Path, env: dict[str, str], runs: int, jobs: int | None
) -> dict[str, object]:
    size_mb = sum(f.stat().st_size for f in files) / 1e6
    paths = [str(f) for f in files]
    grep = ["grep", "-E", "-c", "-f", str(pats), *paths]
    g = [run(grep, env, GREP_LIMIT)]
    if g[0][0] < GREP_SLOW:  # GNU grep's DFA can explode on ~800 regexes: then one run only
        g += [run(grep, env) for _ in range(runs - 1)]
    cmd = [*PYTHON, "classify", "--format", "json", *paths]
    if jobs:
        cmd[len(PYTHON) + 1 : len(PYTHON) + 1] = ["--jobs", str(jobs)]
    r = [run(cmd, env) for _ in range(runs)]
    results = json.loads(r[-1][2])["results"]
    gw = statistics.median(x[0] for x in g)
    rw = statistics.median(x[0] for x in r)
    cats: dict[str, int] = {}
    for v in results:
        cats[v["category"]] = cats.get(v["category"], 0) + 1
    return {
        "input": name,
        "files": len(files),
        "mb": round(size_mb, 1),
        "grep_s": round(gw, 3),
        "repopilot_s": round(rw, 3),
        "repopilot_mb_s": round(size_mb / rw, 1),
        "grep_mb_s": round(size_mb / gw, 1),
        "ratio_to_grep": round(rw / gw, 2),
        "peak_rss_mb": round(max(x[1] for x in r) / 1024, 1),
        "categories": cats if len(results) > 1 else results[0]["category"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, action="append", help="quiet log size in MB (repeatable)")
    ap.add_argument("--dense-mb", type=int, action="append", help="dense log size in MB")
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus")
    ap.add_argument("--no-corpus", action="store_true", help="skip the real-log runs")
    ap.add_argument("--only-corpus", action="store_true", help="skip the synthetic logs")
    ap.add_argument(
        "--engine",
        choices=("set", "reference"),
        default=None,
        help="REPOPILOT_SCAN_ENGINE (default: set, where Hyperscan is installed)",
    )
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--jobs", type=int, default=None, help="classify --jobs (default: its own, the cores)"
    )
    ap.add_argument("--dir", default=None, help="where to keep generated logs (default: temp)")
    ap.add_argument(
        "--grep-first",
        type=int,
        default=None,
        metavar="N",
        help="grep with only the library's first N regexes (GNU grep's DFA explodes on all)",
    )
    ap.add_argument(
        "--without-fast",
        action="store_true",
        help="run classify as a plain install does, without the fast extra (no RE2, no Hyperscan)",
    )
    a = ap.parse_args()
    if a.without_fast:
        PYTHON[:] = WITHOUT_FAST
    workdir = Path(a.dir or tempfile.mkdtemp(prefix="repopilot-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, LC_ALL="C", PYTHONPATH=str(HERE.parent))
    if a.engine:
        env["REPOPILOT_SCAN_ENGINE"] = a.engine
    pats = workdir / "patterns.ere"
    n = grep_patterns(pats, a.grep_first)
    print(f"grep baseline: {n} of the library's regexes as ERE")
    jobs: list[tuple[str, list[Path]]] = []
    for mb in [] if a.only_corpus else a.mb or ([] if a.dense_mb else [100]):
        log = workdir / f"synthetic-{mb}mb.log"
        if not log.exists():
            generate(str(log), mb)
        jobs.append((f"quiet synthetic {mb} MB", [log]))
    for mb in [] if a.only_corpus else a.dense_mb or []:
        log = workdir / f"dense-{mb}mb.log"
        if not log.exists():
            generate(str(log), mb, dense=True)
        jobs.append((f"dense synthetic {mb} MB", [log]))
    if not a.no_corpus:
        logs = corpus_logs(a.corpus) if a.corpus.is_dir() else []
        if not logs:
            print(f"real logs: skipped ({a.corpus} has no *.log files)")
        else:
            cat = workdir / "corpus-concatenated.log"
            if not cat.exists():
                with open(cat, "wb") as out:
                    for f in logs:
                        data = f.read_bytes()
                        out.write(data if data.endswith(b"\n") else data + b"\n")
            jobs.append((f"real logs ({a.corpus.name}), one command", logs))
            jobs.append(("real logs concatenated into one file", [cat]))
    report = []
    for name, files in jobs:
        row = measure(name, files, pats, env, a.runs, a.jobs)
        report.append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps({"results": report}, indent=1))


if __name__ == "__main__":
    main()
