"""The PyGithub client: `GITHUB_API_URL`, bounded rate-limit-aware retries, guarded writes.

Reads (GET/PUT/DELETE/PATCH) are retried inside urllib3 on 429, 5xx and rate-limit 403, honouring
`Retry-After` capped at `max_wait`. POST is never retried there: a POST that reached GitHub but
whose answer was lost would be sent twice (two comments). Callers retry POSTs with `guarded_write`,
which first asks whether the write already landed.

It also names the SDK types (`Repository`, `IssueComment`, `GithubException`) the Action's
handlers hold, so no module outside `repopilot/github/` imports PyGithub itself."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self, TypeVar

import requests
from github import Auth, GithubRetry
from github import Github as Github
from github import GithubException as GithubException
from github.IssueComment import IssueComment as IssueComment
from github.Repository import Repository as Repository
from urllib3.exceptions import InvalidHeader

if TYPE_CHECKING:
    from urllib3.response import BaseHTTPResponse

T = TypeVar("T")

DEFAULT_BOT = "github-actions[bot]"
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"})


@dataclass(frozen=True)
class ClientConfig:
    """Where and how to talk to GitHub. Nothing defaults to api.github.com but the URL itself."""

    token: str
    api_url: str = "https://api.github.com"
    server_url: str = "https://github.com"
    timeout: float = 30.0
    retries: int = 4
    max_wait: float = 60.0  # upper bound for any single Retry-After or rate-limit wait
    pace: float = 1.0  # seconds between writes (GitHub's advice against secondary limits);
    # reads are paced at a quarter of it. 0 turns pacing off (GHES without limits, tests).


class BoundedRetry(GithubRetry):
    """GithubRetry whose waits never exceed `max_wait` seconds, whatever Retry-After says."""

    def __init__(self, max_wait: float = 60.0, **kwargs: Any) -> None:  # (urllib3 Retry's)
        self.max_wait = max_wait
        super().__init__(**kwargs)

    def new(self, **kw: Any) -> Self:
        kw["max_wait"] = self.max_wait
        return super().new(**kw)

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        value = super().get_retry_after(response)
        return None if value is None else min(value, self.max_wait)

    def parse_retry_after(self, retry_after: str) -> float:
        """urllib3 raises InvalidHeader on `-5` or `abc` (the run then ends "unreachable"); a
        malformed value gets the ordinary bounded back-off instead, a huge one `max_wait`."""
        try:
            seconds = super().parse_retry_after(retry_after)
        except (InvalidHeader, ValueError, OverflowError):
            return _backoff(self.get_backoff_time(), self.max_wait)
        return _bounded(seconds, self.max_wait)

    def get_backoff_time(self) -> float:
        return min(super().get_backoff_time(), self.max_wait)


def make_client(cfg: ClientConfig) -> Github:
    """A PyGithub client for `cfg.api_url` (GitHub Enterprise Server works the same way)."""
    retry = BoundedRetry(
        max_wait=cfg.max_wait,
        total=cfg.retries,
        backoff_factor=0.5,
        secondary_rate_wait=cfg.max_wait,
        # a primary rate-limit reset further away than max_wait fails now instead of sleeping
        max_rate_limit_wait=cfg.max_wait,
        status_forcelist=[429, *range(500, 600)],
        allowed_methods=_IDEMPOTENT,
        raise_on_status=False,
        respect_retry_after_header=True,
    )
    return Github(
        base_url=cfg.api_url.rstrip("/"),
        auth=Auth.Token(cfg.token),
        timeout=int(max(1, cfg.timeout)),
        retry=retry,
        per_page=100,
        seconds_between_requests=cfg.pace / 4 or None,
        seconds_between_writes=cfg.pace or None,
        lazy=True,  # no GET for objects we only address (repos, issues)
    )


def bot_login(gh: Github, override: str | None = None) -> str:
    """The login comments are authored by: the override, `GET /user`, else github-actions[bot].

    The workflow `GITHUB_TOKEN` is an installation token: `GET /user` answers 403 for it.
    """
    if override:
        return override
    try:
        return gh.get_user().login
    except GithubException as exc:
        if exc.status in (401, 403, 404):
            return DEFAULT_BOT
        raise


def is_transient(exc: BaseException) -> bool:
    """A failure worth retrying: 429, 5xx, a rate-limit 403, or the connection itself."""
    if isinstance(exc, requests.exceptions.RequestException):
        return True
    if not isinstance(exc, GithubException):
        return False
    if exc.status == 429 or 500 <= exc.status < 600:
        return True
    if exc.status == 403:
        message = str(exc.data.get("message", "")) if isinstance(exc.data, dict) else ""
        return "rate limit" in message.lower() or _header(exc, "retry-after") is not None
    return False


def _header(exc: GithubException, name: str) -> str | None:
    for key, value in (exc.headers or {}).items():
        if key.lower() == name:
            return value
    return None


def wait_for(exc: BaseException, attempt: int, max_wait: float) -> float:
    """Seconds to wait before retrying after `exc`: Retry-After if given, else backoff; bounded."""
    if isinstance(exc, requests.exceptions.Timeout):
        # the request may still be processed after we gave up: give it the longest wait
        # before looking for its effect, or the retry could duplicate it
        return max_wait
    raw = _header(exc, "retry-after") if isinstance(exc, GithubException) else None
    backoff = _backoff(0.5 * (2**attempt), max_wait)
    if raw is None:
        return backoff
    try:
        seconds = float(raw)
    except (ValueError, OverflowError):
        return backoff  # `abc`: not a number, so the ordinary back-off
    if not math.isfinite(seconds) or seconds < 0:
        return backoff if not math.isinf(seconds) or seconds < 0 else max_wait
    return _bounded(seconds, max_wait)


def _bounded(seconds: float, max_wait: float) -> float:
    return max(0.0, min(seconds, max_wait))


def _backoff(seconds: float, max_wait: float) -> float:
    """A malformed Retry-After still waits: never less than 0.5 s, never more than max_wait."""
    return _bounded(max(seconds, 0.5), max_wait)


def guarded_write(
    write: Callable[[], T],
    landed: Callable[[], T | None],
    *,
    attempts: int = 4,
    max_wait: float = 60.0,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run a non-idempotent write; on a transient failure, retry only if it did not land.

    `landed()` looks for the effect of an earlier attempt (e.g. the comment with our marker) and
    returns it, so a POST whose answer was lost is never repeated.
    """
    for attempt in range(attempts):
        try:
            return write()
        except Exception as exc:
            if not is_transient(exc) or attempt == attempts - 1:
                raise
            sleep(wait_for(exc, attempt, max_wait))
            found = landed()
            if found is not None:
                return found
    raise AssertionError("unreachable")


def describe_api_error(exc: BaseException) -> str | None:
    """One line for a GitHub API failure that ends the action, or None if `exc` is not one."""
    if isinstance(exc, GithubException):
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        return f"GitHub API answered {exc.status}: {message or exc.__class__.__name__}"
    if isinstance(exc, requests.exceptions.RequestException):
        kind = exc.__class__.__name__
        return f"GitHub API unreachable after retries ({kind})"
    return None
