"""`repopilot report --repo OWNER/NAME`: the repository's memory read through the API (issue 28).

Two requests against `GITHUB_API_URL` with the CLI's GitHub settings: the repository (so a wrong
name or a token that cannot see it is said, not taken for an empty memory), then `seen.json` on
`repopilot-memory` through github/seen_store.py's reader: every record the file holds (the
writers keep the newest 1000), not the Action's newest 200.
"""

from __future__ import annotations

import requests
from github import GithubException

from repopilot.errors import UsageError
from repopilot.github.client import ClientConfig, make_client
from repopilot.github.seen_store import WHERE, Loaded, SeenStore
from repopilot.run_records import SeenRecord
from repopilot.settings import GitHubSettings


def read_memory(settings: GitHubSettings, full_name: str) -> tuple[SeenRecord, ...]:
    """Every record of the memory (oldest first); none when nothing was recorded
    yet (no branch, no file). UsageError with one line when it cannot be read."""
    return read_loaded(settings, full_name).records


def read_loaded(settings: GitHubSettings, full_name: str) -> Loaded:
    """`read_memory`'s answer with whether the file is there (`Loaded.absent`)."""
    if not settings.token:
        raise UsageError(
            "--repo needs a token in GITHUB_TOKEN (e.g. GITHUB_TOKEN=$(gh auth token)), "
            f"or read the file: git show origin/{WHERE} > seen.json"
        )
    cfg = ClientConfig(
        token=settings.token,
        api_url=settings.api_url,
        server_url=settings.server_url,
        timeout=settings.timeout,
        max_wait=settings.max_wait,
        pace=settings.pace,
    )
    repo = make_client(cfg).get_repo(full_name)  # lazy: no request yet
    try:
        repo.requester.requestJsonAndCheck("GET", repo.url)
    except GithubException as exc:
        why = "not found, or the token cannot see it" if exc.status == 404 else f"{exc.status}"
        raise UsageError(f"{full_name}: the GitHub API answered {why}") from None
    except requests.RequestException as exc:
        raise UsageError(
            f"{full_name}: the GitHub API at {settings.api_url} could not be reached "
            f"({exc.__class__.__name__})"
        ) from None
    loaded = SeenStore(repo, budget=1).read(limit=None)
    if loaded.warning:
        raise UsageError(f"{full_name}: {loaded.warning}")
    return loaded
