"""Every check a proposed diff must pass (docs/THREAT_MODEL.md §5), short of building the Proposal.

`check` reads the diff three ways and refuses it unless all agree and obey the policy: the strict
reader of `repopilot.proposal.diffread`, `unidiff`, and git itself (`git apply --numstat`, which lists the
paths git would write). With a checkout it also runs `git apply --check` there and refuses paths
that resolve outside it or through a symlink. `check_path` is the per-path policy.

Known limit: unidiff misreads a `diff --git` line whose path contains ` b/` (`a b/x`), so such
diffs are refused as `parse-error` (safe, but a legitimate diff there cannot be proposed).
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from unidiff.patch import PatchSet

from repopilot.proposal.diffread import FileSection, Refused, read_sections
from repopilot.safety.deceptive import diff_deception


@dataclass(frozen=True)
class Policy:
    """Limits and protected paths for proposals; defaults follow docs/THREAT_MODEL.md §5."""

    max_bytes: int = 64 * 1024
    """Largest diff accepted, in UTF-8 bytes."""
    max_files: int = 20
    """Most file sections in one diff."""
    max_changed_lines: int = 400
    """Most added plus removed lines."""
    protected_globs: tuple[str, ...] = ()
    """Extra fnmatch globs (case-insensitive, `*` crosses `/`) refused as `protected-path`."""
    git_timeout: float = 20.0
    """Seconds each git call may take."""
    exec_path: str = os.defpath
    """The PATH git is found on (the entry point's `Settings.exec_path`); nothing else of the
    caller's environment reaches git."""


DEFAULT_POLICY = Policy()
"""The docs/THREAT_MODEL.md §5 defaults; the default argument of every check that takes a Policy."""

# Directories and file names whose change could run code in CI or change who reviews what.
_PROTECTED_DIRS = frozenset({".github", ".git", "git~1", ".husky", ".githooks"})
_PROTECTED_NAMES = frozenset(
    {"action.yml", "action.yaml", "dockerfile", "containerfile", "codeowners", ".gitmodules"}
)


def check_path(path: str, policy: Policy = DEFAULT_POLICY) -> None:
    """Raise Refused when `path` (relative, as git writes it) escapes or is protected."""
    bad = [c for c in path if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if not path or path.startswith("/") or "\\" in path or bad:
        what = f"control character U+{ord(bad[0]):04X}" if bad else "absolute or empty or `\\`"
        raise Refused("path-escape", f"{path!r}: {what}")
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise Refused("path-escape", f"{path!r}: empty, `.` or `..` segment")
    # Windows and macOS read `.git.`, `.git ` and `git~1` as `.git`: compare what they would see.
    low = [p.lower().rstrip(" .") or p for p in parts]
    if (
        _PROTECTED_DIRS.intersection(low[:-1])
        or low[-1] in _PROTECTED_NAMES | _PROTECTED_DIRS
        or low[-1].startswith("dockerfile.")
        or any(fnmatch.fnmatchcase(path.lower(), g.lower()) for g in policy.protected_globs)
    ):
        raise Refused("protected-path", f"{path}: changes to this path are not proposed")


def _git(
    args: list[str], cwd: Path, diff: str, policy: Policy
) -> subprocess.CompletedProcess[bytes]:
    # Nothing from the caller's GIT_* environment or global config may change what git reads:
    # git gets its PATH and these variables, no more.
    timeout = policy.git_timeout
    env = dict(
        PATH=policy.exec_path,
        HOME=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CEILING_DIRECTORIES=str(cwd.resolve().parent),  # never a repository above cwd
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    cmd = ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "apply"]
    try:
        return subprocess.run(
            cmd + args, cwd=cwd, input=diff.encode(), capture_output=True, timeout=timeout, env=env
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Refused("does-not-apply", f"git apply could not run: {exc}") from exc


def _git_paths(diff: str, cwd: Path, policy: Policy) -> set[str]:
    """The paths git itself reads from the diff (`--numstat -z`: target, or source if deleted)."""
    done = _git(["--numstat", "-z", "-"], cwd, diff, policy)
    if done.returncode:
        raise Refused("parse-error", _first_line(done.stderr, "git cannot read the diff"))
    return {
        rec.split("\t", 2)[2]
        for rec in done.stdout.decode("utf-8", "replace").split("\0")
        if rec.count("\t") >= 2
    }


def _first_line(stderr: bytes, default: str) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    return text.splitlines()[0][:300] if text else default


def _utf8(path: Path, limit: int = 4 * 1024 * 1024) -> bool:
    """The file reads as UTF-8 text (the first `limit` bytes; a cut character is allowed)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError:
        return True  # unreadable here: git apply --check reports it
    try:
        data[:limit].decode("utf-8")
    except UnicodeDecodeError as exc:
        return len(data) > limit and exc.start >= limit - 4
    return True


def _inside(repo: Path, paths: list[str]) -> None:
    """Refuse paths that leave the checkout or pass through a symlink or a directory."""
    root = repo.resolve()
    for path in paths:
        probe = root
        for part in path.split("/"):
            probe = probe / part
            if probe.is_symlink():
                raise Refused("symlink", f"{path}: {probe.relative_to(root)} is a symlink")
        if not os.path.realpath(probe).startswith(str(root) + os.sep):
            raise Refused("path-escape", f"{path}: resolves outside the checkout")
        if probe.is_dir():
            raise Refused("submodule", f"{path}: is a directory in the checkout (a submodule?)")
        if probe.is_file() and not _utf8(probe):
            # the apply reads and writes text: such a file could be shown but never applied
            raise Refused("binary", f"{path}: is not UTF-8 text in the checkout")


def check(
    diff: str, repo: Path | None = None, policy: Policy = DEFAULT_POLICY
) -> list[FileSection]:
    """Every check of `validate`; raises Refused, returns the file sections."""
    if not isinstance(diff, str) or not diff.strip():
        raise Refused("parse-error", "empty diff")
    try:
        size = len(diff.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise Refused("parse-error", f"not valid UTF-8 text: {exc.reason}") from exc
    if size > policy.max_bytes:
        raise Refused("too-large", f"{size} bytes (limit {policy.max_bytes})")
    sections = read_sections(diff)
    for s in sections:
        for name in s.names:
            check_path(name, policy)
    if (deceit := diff_deception(diff)) is not None:  # what is approved must be what is seen
        raise Refused("deceptive", deceit)
    if len(sections) > policy.max_files:
        raise Refused("too-large", f"{len(sections)} files (limit {policy.max_files})")
    changed = sum(s.changed for s in sections)
    if changed > policy.max_changed_lines:
        raise Refused("too-large", f"{changed} changed lines (limit {policy.max_changed_lines})")
    try:
        patch = PatchSet(diff)
    except Exception as exc:  # a third-party parser on hostile text: any failure is a parse error
        raise Refused("parse-error", f"unidiff: {exc}") from exc
    if len(patch) != len(sections) or sum(f.added + f.removed for f in patch) != changed:
        raise Refused("parse-error", "unidiff and the strict reader disagree on this diff")
    mentioned = {n for s in sections for n in s.names}
    with tempfile.TemporaryDirectory(prefix="repopilot-diff-") as scratch:
        for path in _git_paths(diff, repo or Path(scratch), policy) - mentioned:
            raise Refused("parse-error", f"git reads path {path!r} that the diff does not name")
    if repo is not None:
        _inside(repo, sorted(mentioned))
        done = _git(["--check", "-"], repo, diff, policy)
        if done.returncode:
            raise Refused("does-not-apply", _first_line(done.stderr, "git apply --check failed"))
    return sections
