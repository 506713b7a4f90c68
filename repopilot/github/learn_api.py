"""The API reads of learning (issue 21, docs/CONTRACTS.md Contract 6): a repository's own patterns
and problem matchers from its DEFAULT branch (the pull request that changes them: learn_pull.py).

The patterns are read from the default branch through the contents API, never from a pull
request's head: a fork's pull request must not be able to teach the bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from github import GithubException
from github.Repository import Repository

PATTERN_DIR = ".github/repopilot/patterns"
MATCHER_DIRS = (".github", ".github/problem-matchers", ".github/matchers")
MAX_FILE = 256 * 1024  # a pattern file larger than this is not a pattern file
MAX_FILES = 50
MAX_MATCHER_FILES = 10  # `.github/` holds other JSON too: each is one read


@dataclass(frozen=True, slots=True)
class Fetched:
    """The pattern files written to `directory`, and one warning per file left out."""

    files: tuple[Path, ...]
    warnings: tuple[str, ...]
    branch: str


def fetch_patterns(repo: Repository, directory: Path) -> Fetched:
    """`.github/repopilot/patterns/*.y(a)ml` of the default branch, copied into `directory`."""
    branch = repo.default_branch or "main"
    try:
        listing = repo.get_contents(PATTERN_DIR, ref=branch)
    except GithubException as exc:
        if exc.status == 404:
            return Fetched((), (), branch)
        raise
    entries = listing if isinstance(listing, list) else [listing]
    files: list[Path] = []
    warnings: list[str] = []
    for entry in sorted(entries, key=lambda e: e.name):
        name = entry.name
        if entry.type != "file" or not name.endswith((".yaml", ".yml")):
            continue
        if len(files) >= MAX_FILES:
            warnings.append(f"{PATTERN_DIR}/{name}: skipped (more than {MAX_FILES} files)")
            continue
        if (entry.size or 0) > MAX_FILE or "/" in name or name.startswith("."):
            warnings.append(f"{PATTERN_DIR}/{name}: skipped (larger than {MAX_FILE} bytes)")
            continue
        try:
            data = repo.get_contents(f"{PATTERN_DIR}/{name}", ref=branch)
            content = data.decoded_content if not isinstance(data, list) else None
        except GithubException as exc:
            warnings.append(f"{PATTERN_DIR}/{name}: skipped (cannot read it: {exc.status})")
            continue
        if content is None or len(content) > MAX_FILE:
            warnings.append(f"{PATTERN_DIR}/{name}: skipped (not a file under {MAX_FILE} bytes)")
            continue
        dest = directory / name
        dest.write_bytes(content)
        files.append(dest)
    return Fetched(tuple(files), tuple(warnings), branch)


@dataclass(frozen=True, slots=True)
class MatcherFile:
    """One `*.json` file of the default branch that may be a problem matcher."""

    path: str
    content: bytes


@dataclass(frozen=True, slots=True)
class FetchedMatchers:
    files: tuple[MatcherFile, ...]
    warnings: tuple[str, ...]
    branch: str


def fetch_matchers(repo: Repository) -> FetchedMatchers:
    """The `*.json` files of `.github/` (and of `.github/problem-matchers/` or
    `.github/matchers/` when the listing of `.github/` shows them) on the default branch: one
    listing per directory, one read per file, at most MAX_MATCHER_FILES files."""
    branch = repo.default_branch or "main"
    files: list[MatcherFile] = []
    warnings: list[str] = []
    present = {MATCHER_DIRS[0]}
    for directory in MATCHER_DIRS:
        if directory not in present:
            continue
        try:
            listing = repo.get_contents(directory, ref=branch)
        except GithubException as exc:
            if exc.status == 404:
                continue
            raise
        entries = listing if isinstance(listing, list) else [listing]
        for entry in sorted(entries, key=lambda e: e.name):
            path = f"{directory}/{entry.name}"
            if entry.type == "dir" and path in MATCHER_DIRS:
                present.add(path)
            if entry.type != "file" or not entry.name.endswith(".json"):
                continue
            if len(files) >= MAX_MATCHER_FILES or (entry.size or 0) > MAX_FILE:
                warnings.append(f"{path}: skipped (too many or too large)")
                continue
            try:
                data = repo.get_contents(path, ref=branch)
            except GithubException as exc:
                warnings.append(f"{path}: skipped (cannot read it: {exc.status})")
                continue
            if not isinstance(data, list) and len(data.decoded_content) <= MAX_FILE:
                files.append(MatcherFile(path, data.decoded_content))
    return FetchedMatchers(tuple(files), tuple(warnings), branch)
