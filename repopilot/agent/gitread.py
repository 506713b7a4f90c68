"""Read-only git for the agent: `git log` and the PR's `git diff`, nothing that runs repo content.

git runs from an argument list (no shell), without a pager, with hooks, fsmonitor, external diff
drivers and textconv filters turned off, without user or system config, and with a timeout. The
checkout's own `.git/config` is written by the checkout step, not by the pull request. Nothing of
the caller's environment reaches git but the PATH it is found on (`exec_path`, from the settings).
"""

from __future__ import annotations

import os
import shutil
import subprocess

from repopilot.agent.schema import ToolError

GIT_TIMEOUT_S = 20.0


class GitReader:
    """git over the checkout at `root` (a real path); `base_ref` is the PR base, None if unknown;
    `exec_path` the PATH git is looked up on (the entry point's `Settings.exec_path`)."""

    def __init__(self, root: str, base_ref: str | None, exec_path: str = os.defpath):
        self.root, self.base_ref, self.exec_path = root, base_ref, exec_path

    def run(self, *args: str) -> str:
        """stdout of `git <args>`; ToolError with git's first error line when it fails."""
        git = shutil.which("git", path=self.exec_path) or "git"
        cmd = [git, "--no-pager", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"]
        cmd += ["-c", f"safe.directory={self.root}", "-c", "log.showSignature=false"]
        cmd += ["-C", self.root, *args]
        env = {"GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "HOME": os.devnull}
        env["PATH"] = self.exec_path
        try:
            proc = subprocess.run(
                cmd, capture_output=True, timeout=GIT_TIMEOUT_S, env=env, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            raise ToolError(f"git {args[0]} timed out after {GIT_TIMEOUT_S:.0f} s") from None
        except OSError as exc:
            raise ToolError(f"git is not available: {exc.strerror}") from None
        if proc.returncode != 0:
            first = proc.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
            raise ToolError(f"git {args[0]} failed: {first[0] if first else proc.returncode}")
        return proc.stdout.decode("utf-8", "replace")

    def log(self, pathspec: list[str], max_count: int) -> str:
        fmt = "--format=%h %ad %an: %s"
        out = self.run("log", "--no-color", "-n", str(max_count), "--date=short", fmt, *pathspec)
        return out or "no commits"

    def diff(self, pathspec: list[str]) -> str:
        """The PR's changes: merge base of the base ref and HEAD, against HEAD."""
        if not self.base_ref:
            return (
                "The PR base is unknown for this run, so git_diff cannot show the PR's changes. "
                "Use git_log instead."
            )
        if self.base_ref.startswith("-"):
            raise ToolError("invalid base ref")
        self.run("rev-parse", "--verify", "--quiet", f"{self.base_ref}^{{commit}}")
        args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", f"{self.base_ref}...HEAD"]
        out = self.run(*args, *pathspec)
        return out or f"no changes between {self.base_ref} and HEAD"
