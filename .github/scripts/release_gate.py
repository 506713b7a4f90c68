"""The release workflow's gate before a major tag moves (issue 22): the tagged commit must be on
`main` and its version greater than the one the major tag points at now.

    python .github/scripts/release_gate.py vX.Y.Z [--main origin/main] [--repo DIR]

Reads the local clone only (actions/checkout with fetch-depth: 0 has every branch and tag). Prints
one `::error::` line and exits 1 when the tag must not be released; exit 0 otherwise (also when
the major tag already points at the tagged commit: a re-run moves nothing). Standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib

_TAG = re.compile(r"v(\d+)\.(\d+)\.(\d+)")


class Refused(Exception):
    """The tag must not be released; the message says why."""


def _git(repo: str, *args: str, check: bool = True) -> str | None:
    done = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if done.returncode != 0:
        if check:
            raise Refused(f"git {' '.join(args)} failed: {done.stderr.strip()}")
        return None
    return done.stdout.strip()


def _version(text: str) -> tuple[int, int, int] | None:
    m = _TAG.fullmatch(text)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


def _released_at(repo: str, commit: str) -> tuple[int, int, int] | None:
    """The version released at `commit`: its highest vX.Y.Z tag, else its pyproject.toml's."""
    tags = _git(repo, "tag", "--points-at", commit) or ""
    found = [v for v in map(_version, tags.split()) if v is not None]
    if found:
        return max(found)
    text = _git(repo, "show", f"{commit}:pyproject.toml", check=False)
    if text is None:
        return None
    version = str(tomllib.loads(text).get("project", {}).get("version", ""))
    return _version(f"v{version}")


def check(repo: str, tag: str, main: str = "origin/main") -> str:
    """What the gate allows, as one line; raises Refused when the tag must not be released."""
    version = _version(tag)
    if version is None:
        raise Refused(f"{tag} is not a vX.Y.Z tag")
    commit = _git(repo, "rev-parse", "--verify", "-q", f"refs/tags/{tag}^{{commit}}", check=False)
    if not commit:
        raise Refused(f"tag {tag} does not exist in this clone")
    if _git(repo, "rev-parse", "--verify", "-q", f"{main}^{{commit}}", check=False) is None:
        raise Refused(f"{main} does not exist in this clone (checkout needs fetch-depth: 0)")
    if _git(repo, "merge-base", "--is-ancestor", commit, main, check=False) is None:
        raise Refused(f"{tag} ({commit[:12]}) is not a commit of {main}: releases come from main")
    major = f"v{version[0]}"
    current = _git(
        repo, "rev-parse", "--verify", "-q", f"refs/tags/{major}^{{commit}}", check=False
    )
    if not current:
        return f"{tag} ({commit[:12]}) is on {main}; {major} does not exist yet"
    if current == commit:
        return f"{major} already points at {tag} ({commit[:12]})"
    now = _released_at(repo, current)
    if now is None:
        raise Refused(f"cannot tell which version {major} ({current[:12]}) is: refusing to move it")
    if version <= now:
        shown = ".".join(map(str, now))
        raise Refused(f"{tag} is not newer than {major}, which is v{shown} ({current[:12]})")
    return f"{tag} ({commit[:12]}) is on {main} and newer than {major} (v{'.'.join(map(str, now))})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tag")
    parser.add_argument("--main", default="origin/main")
    parser.add_argument("--repo", default=".")
    args = parser.parse_args(argv)
    try:
        print(check(args.repo, args.tag, args.main))
    except Refused as why:
        print(f"::error::release gate: {why}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
