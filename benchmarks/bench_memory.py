"""Peak memory of `repopilot classify -` as the log grows: is it flat in the log's size?

A generator writes a synthetic GitHub Actions log (timestamps, ANSI, steps, noise, one pytest
failure at the end) straight into the process's stdin, so no input file exists; the size is only
bounded by what the generator is told. Peak RSS comes from `os.wait4` (ru_maxrss) of that process.
Note: `repopilot.logs` spools stdin to a temporary file before reading it, so disk (TMPDIR) holds
one copy of the log during the run; this script points TMPDIR at its own directory and reports
what is left there afterwards.

    python benchmarks/bench_memory.py --mb 100 --mb 1000 --mb 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK_LINES = 40_000
_NOISE = (
    "Collecting {pkg}=={v}",
    "\x1b[36;1m  Downloading {pkg}-{v}-py3-none-any.whl ({n} kB)\x1b[0m",
    "tests/test_{pkg}.py::test_case_{n} PASSED                               [ {p}%]",
    "gcc -O2 -Wall -fPIC -c src/{pkg}/module_{n}.c -o build/module_{n}.o",
    "npm WARN deprecated {pkg}@{v}: this library is no longer supported",
    "   Compiling {pkg} v{v}",
    "ok  \tgithub.com/example/{pkg}/internal/pkg{n}\t0.{n}s",
    "DEBUG: resolved {pkg} to {v} (took {n} ms)",
)
_PKGS = ("requests", "numpy", "react", "serde", "tokio", "pydantic", "jackson")
_TAIL = (
    "##[group]Run python -m pytest -q",
    "python -m pytest -q",
    "##[endgroup]",
    "FAILED tests/test_headers.py::test_parse_header - AssertionError: assert {} == {'x': 1}",
    "========================= 1 failed, 1234 passed in 98.21s =========================",
    "##[error]Process completed with exit code 1.",
)


def _stamp(i: int) -> str:
    return f"2026-01-01T12:{i // 600 % 60:02d}:{i // 10 % 60:02d}.{i % 10}000000Z "


def _block(rnd: random.Random, first: int) -> bytes:
    lines = []
    for i in range(first, first + BLOCK_LINES):
        text = rnd.choice(_NOISE).format(
            pkg=rnd.choice(_PKGS),
            v=f"{rnd.randint(0, 9)}.{rnd.randint(0, 30)}.{rnd.randint(0, 9)}",
            n=rnd.randint(1, 9999),
            p=rnd.randint(0, 100),
        )
        lines.append(_stamp(i) + text)
    return ("\n".join(lines) + "\n").encode()


def generate(total: int, seed: int = 11) -> Iterator[bytes]:
    """About `total` bytes of log: a few distinct blocks repeated (cheap to produce at GB
    scale), a step header now and then, and the failing step at the very end."""
    rnd = random.Random(seed)
    blocks = [_block(rnd, k * BLOCK_LINES) for k in range(4)]
    sent = 0
    k = 0
    while sent < total:
        if k % 50 == 0:
            header = (
                f"{_stamp(k)}##[group]Run ./scripts/step-{k // 50}.sh\n"
                f"{_stamp(k)}./scripts/step-{k // 50}.sh\n{_stamp(k)}##[endgroup]\n"
            ).encode()
            yield header
            sent += len(header)
        block = blocks[k % len(blocks)]
        yield block
        sent += len(block)
        k += 1
    yield "".join(_stamp(i) + t + "\n" for i, t in enumerate(_TAIL)).encode()


@dataclass(frozen=True)
class Measure:
    mb: int
    bytes_fed: int
    seconds: float
    peak_rss_mb: float
    exit_status: int
    category: str
    evidence_line: int | None
    left_in_tmpdir_mb: float


def measure(mb: int, *, workdir: Path | None = None, patterns: str | None = None) -> Measure:
    """Feed `mb` MB (10**6 bytes) into `repopilot classify --format json -` and measure it."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-mem-", dir=workdir))
    spool = tmp / "spool"
    spool.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(spool))
    cmd = [sys.executable, "-m", "repopilot", "classify", "--format", "json", "-"]
    if patterns:
        cmd[4:4] = ["--patterns", patterns]
    out_path = tmp / "out.json"
    start = time.monotonic()
    fed = 0
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.PIPE, env=env, cwd=ROOT
        )
        assert proc.stdin is not None
        try:
            for piece in generate(mb * 1_000_000):
                proc.stdin.write(piece)
                fed += len(piece)
        except BrokenPipeError:  # it stopped reading (an error): its stderr says why
            pass
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        err = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    left = sum(p.stat().st_size for p in spool.rglob("*") if p.is_file())
    category, line = "?", None
    if proc.returncode == 0:
        (result,) = json.loads(out_path.read_text())["results"]
        category = result["category"]
        line = result["evidence"][0]["line"] if result["evidence"] else None
    else:
        sys.stderr.write(err.decode("utf-8", "replace"))
    shutil.rmtree(tmp, ignore_errors=True)
    return Measure(
        mb, fed, seconds, usage.ru_maxrss / 1024, proc.returncode, category, line, left / 1e6
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, action="append", help="sizes in MB (default 100 1000 2000)")
    ap.add_argument("--patterns", help="pattern library (default: the bundled one)")
    args = ap.parse_args()
    sizes = args.mb or [100, 1000, 2000]
    rows = [measure(mb, patterns=args.patterns) for mb in sizes]
    print(f"{'MB':>6} {'fed MB':>8} {'seconds':>8} {'MB/s':>6} {'peak RSS MB':>12} "
          f"{'category':>13} {'line':>10} {'left in TMPDIR MB':>18}")  # fmt: skip
    for r in rows:
        print(
            f"{r.mb:>6} {r.bytes_fed / 1e6:>8.0f} {r.seconds:>8.1f} "
            f"{r.bytes_fed / 1e6 / r.seconds:>6.1f} {r.peak_rss_mb:>12.1f} {r.category:>13} "
            f"{r.evidence_line or '-':>10} {r.left_in_tmpdir_mb:>18.0f}"
        )
    base = rows[0].peak_rss_mb
    for r in rows[1:]:
        print(
            f"peak RSS at {r.mb} MB / at {rows[0].mb} MB = {r.peak_rss_mb / base:.2f} "
            f"(log {r.mb / rows[0].mb:.0f}x larger)"
        )


if __name__ == "__main__":
    main()
