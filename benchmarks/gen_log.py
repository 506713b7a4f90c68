"""Generate a realistic synthetic GitHub Actions job log of a given size.

Timestamps on every line, ANSI colour, `##[group]` steps, pip/npm/gcc/cargo/pytest noise, and a
few real-looking failure lines near the end (a pytest failure, its summary, the exit code line).
Deterministic for a given size and seed. `--dense` makes 1 line in 6 hold an error-like word that
is no failure (package names like `error-ex`, test names like `test_error_path`, `-Werror`,
retries): the lines a literal prefilter lets through but no pattern should confirm.

    python benchmarks/gen_log.py OUT.log --mb 100 [--dense]
"""

from __future__ import annotations

import argparse
import random
from datetime import datetime, timedelta

NOISE = [
    "Collecting {pkg}=={v}",
    "  Downloading {pkg}-{v}-py3-none-any.whl ({n} kB)",
    "\x1b[36;1m     \x1b[0m|\x1b[32m████████████████████████████████\x1b[0m| {n} kB {n} MB/s",
    "Requirement already satisfied: {pkg} in /opt/hostedtoolcache/Python/3.11.7/x64/lib/python3.11/site-packages ({v})",
    "npm WARN deprecated {pkg}@{v}: this library is no longer supported",
    "added {n} packages, and audited {n} packages in {n}s",
    "gcc -pthread -Wno-unused-result -Wsign-compare -DNDEBUG -g -fwrapv -O2 -Wall -fPIC -I/usr/include/python3.11 -c src/{pkg}/module_{n}.c -o build/temp/module_{n}.o",
    "   Compiling {pkg} v{v}",
    "    Finished dev [unoptimized + debuginfo] target(s) in {n}.{n}s",
    "tests/test_{pkg}.py::test_case_{n} PASSED                                   [ {p}%]",
    "tests/unit/{pkg}/test_api.py ........................................... [ {p}%]",
    "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/{pkg}/{pkg}-core/{v}/{pkg}-core-{v}.jar ({n} kB at {n} kB/s)",
    "ok  \tgithub.com/example/{pkg}/internal/pkg{n}\t0.{n}s",
    "  \x1b[32m✓\x1b[39m renders the {pkg} component ({n} ms)",
    "[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +{sha}:refs/remotes/origin/main",
    "copying build/lib/{pkg}/__init__.py -> build/bdist.linux-x86_64/wheel/{pkg}",
    "DEBUG: resolved {pkg} to {v} (took {n} ms)",
]
# Error-like words in lines that report no failure: what makes real logs dense in candidates.
DENSE = [
    "npm http fetch GET 200 https://registry.npmjs.org/error-ex/-/error-ex-1.3.{n}.tgz {n}ms",
    "  Downloading is-error-{v}.tgz from https://registry.npmjs.org/is-error",
    "tests/test_{pkg}.py::test_error_path PASSED                              [ {p}%]",
    "tests/test_{pkg}.py::test_fails_on_bad_input PASSED                      [ {p}%]",
    "g++ -std=c++17 -O2 -Wall -Wextra -Werror -c src/{pkg}/error_{n}.cc -o build/error_{n}.o",
    "cc -Werror=implicit-function-declaration -c src/{pkg}/fail_{n}.c -o build/fail_{n}.o",
    "Retrying (Retry(total=4, connect=None, read=None)) after {n} ms: /simple/{pkg}/",
    "   Compiling thiserror v1.0.{n}",
    "   Compiling anyhow v1.0.{n} (error handling for {pkg})",
    "  \x1b[32m✓\x1b[39m handles a failed {pkg} request gracefully ({n} ms)",
    "ok  \tgithub.com/example/{pkg}/errors\t0.{n}s",
    "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/{pkg}/error-prone/{v}/error-prone-{v}.pom",
    "DEBUG: {pkg}: retry {p}/5 of cache lookup, not found in remote cache, building",
    "--- PASS: TestErrorWrapping/{pkg}_{n} (0.00s)",
]
PKGS = ["requests", "numpy", "urllib3", "react", "lodash", "serde", "tokio", "pydantic", "jackson"]
FAILURE = [
    "##[group]Run python -m pytest -q",
    "##[endgroup]",
    "\x1b[1m\x1b[31m________________________ test_parse_header ________________________\x1b[0m",
    "    def test_parse_header():",
    ">       assert parse_header(b'x') == {'x': 1}",
    "E       AssertionError: assert {} == {'x': 1}",
    "tests/test_headers.py:42: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_headers.py::test_parse_header - AssertionError: assert {} == {'x': 1}",
    "========================= 1 failed, 1234 passed in 98.21s =========================",
    "##[error]Process completed with exit code 1.",
]


def generate(path: str, mb: int, seed: int = 7, dense: bool = False) -> None:
    rnd = random.Random(seed)
    target = mb * 1_000_000
    t = datetime(2026, 1, 1, 12, 0, 0)
    size = 0
    step = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        buf: list[str] = []
        while size < target:
            if rnd.random() < 0.0005:
                step += 1
                line = f"##[group]Run ./scripts/build-step-{step}.sh\n" + "{stamp} ##[endgroup]"
            elif rnd.random() < 0.0005:
                line = "##[endgroup]"
            else:
                pool = DENSE if dense and rnd.random() < 1 / 6 else NOISE
                line = rnd.choice(pool).format(
                    pkg=rnd.choice(PKGS),
                    v=f"{rnd.randint(0, 9)}.{rnd.randint(0, 30)}.{rnd.randint(0, 9)}",
                    n=rnd.randint(1, 9999),
                    p=rnd.randint(0, 100),
                    sha=f"{rnd.getrandbits(160):040x}",
                )
            t += timedelta(microseconds=rnd.randint(1, 20000))
            stamp = f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d}0Z"
            s = f"{stamp} {line.replace('{stamp}', stamp)}\n"
            size += len(s.encode("utf-8"))
            buf.append(s)
            if len(buf) >= 10000:
                out.write("".join(buf))
                buf.clear()
        for line in FAILURE:
            t += timedelta(milliseconds=3)
            buf.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d}0Z {line}\n")
        buf.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.0000000Z Post job cleanup.\n")
        out.write("".join(buf))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dense", action="store_true", help="1 line in 6 with an error-like word")
    a = ap.parse_args()
    generate(a.out, a.mb, a.seed, a.dense)


if __name__ == "__main__":
    main()
