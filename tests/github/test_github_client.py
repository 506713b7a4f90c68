"""The GitHub edge's client against the loopback server: retries, bounded waits, guarded POSTs,
the bot login, and the log download's redirect."""

from __future__ import annotations

import time

import pytest
from github import GithubException

from repopilot.github.client import ClientConfig, bot_login, guarded_write, make_client
from repopilot.github.runs import FailedJob, LogUnavailable, fetch_job_log
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

SECONDARY = {"message": "You have exceeded a secondary rate limit."}


@pytest.fixture
def server():
    state = State(bot="repopilot-bot")
    state.permissions["writer"] = "write"
    with GitHubServer(state) as srv:
        yield srv


def _client(server, **kw):
    cfg = ClientConfig(
        token="ghs_unit",
        api_url=server.url,
        max_wait=kw.pop("max_wait", 0.1),  # retries without sleeping through Retry-After: 1
        timeout=kw.pop("timeout", 3.0),
        **kw,
    )
    return make_client(cfg)


def test_get_is_retried_on_502_429_and_secondary_403(server):
    state = server.state
    path = r"/repos/octo-org/octo-repo/collaborators/writer/permission"
    state.faults += [
        Fault("GET", path, 502),
        Fault("GET", path, 429, {"message": "x"}, {"Retry-After": "1"}),
        Fault("GET", path, 403, SECONDARY, {"Retry-After": "1"}),
    ]
    repo = _client(server).get_repo("octo-org/octo-repo")
    assert repo.get_collaborator_role_name("writer") == "write"
    assert len(state.calls("GET", path)) == 4


def test_retry_after_is_capped_by_max_wait(server):
    state = server.state
    path = r"/repos/octo-org/octo-repo/collaborators/writer/permission"
    state.faults.append(Fault("GET", path, 429, {"message": "x"}, {"Retry-After": "3600"}))
    started = time.monotonic()
    assert (
        _client(server, max_wait=0.5)
        .get_repo("octo-org/octo-repo")
        .get_collaborator_role_name("writer")
    )
    assert time.monotonic() - started < 10


def test_post_is_not_retried_by_urllib3(server):
    state = server.state
    state.faults.append(Fault("POST", r".*/issues/7/comments", 502, land=True))
    issue = _client(server).get_repo("octo-org/octo-repo").get_issue(7)
    with pytest.raises(GithubException) as err:
        issue.create_comment("hello")
    assert err.value.status == 502
    assert len(state.calls("POST", r".*/issues/7/comments")) == 1
    assert len(state.comments) == 1  # it landed: a blind retry would have made two


def test_guarded_write_asks_before_repeating(server):
    state = server.state
    state.faults.append(Fault("POST", r".*/issues/7/comments", 502, land=True))
    issue = _client(server).get_repo("octo-org/octo-repo").get_issue(7)
    waits: list[float] = []

    def landed():
        return next(iter(issue.get_comments()), None)

    got = guarded_write(
        lambda: issue.create_comment("hello"), landed, max_wait=1, sleep=waits.append
    )
    assert got.body == "hello" and len(state.comments) == 1 and len(waits) == 1


def test_guarded_write_gives_up_on_non_transient_errors(server):
    state = server.state
    state.faults.append(
        Fault("POST", r".*/issues/7/comments", 422, {"message": "Validation Failed"})
    )
    issue = _client(server).get_repo("octo-org/octo-repo").get_issue(7)
    with pytest.raises(GithubException):
        guarded_write(lambda: issue.create_comment("x"), lambda: None, sleep=lambda s: None)
    assert len(state.calls("POST", r".*/issues/7/comments")) == 1


def test_bot_login(server):
    gh = _client(server)
    assert bot_login(gh) == "repopilot-bot"
    assert bot_login(gh, "my-app[bot]") == "my-app[bot]"
    server.state.bot = None
    assert bot_login(gh) == "github-actions[bot]"


def test_job_log_redirect_is_followed_without_authorization(server, tmp_path):
    state = server.state
    state.job_logs[5] = b"line\n" * 1000
    repo = _client(server).get_repo("octo-org/octo-repo")
    got = fetch_job_log(repo, FailedJob(5, "j", "failure", None), tmp_path, cap=1 << 20)
    assert got.path.read_bytes() == state.job_logs[5] and not got.truncated
    [dl] = state.calls("GET", r"/jobs/5", host="storage")
    assert "Authorization" not in dl.headers and "authorization" not in dl.headers


def test_job_log_is_cut_at_the_byte_cap(server, tmp_path):
    state = server.state
    state.job_logs[5] = b"x" * 100_000
    repo = _client(server).get_repo("octo-org/octo-repo")
    got = fetch_job_log(repo, FailedJob(5, "j", "failure", None), tmp_path, cap=1000)
    assert got.truncated and got.path.stat().st_size == 1000


@pytest.mark.parametrize("status", [404, 410])
def test_expired_job_log_is_unavailable(server, tmp_path, status):
    server.state.job_logs[5] = status
    repo = _client(server).get_repo("octo-org/octo-repo")
    with pytest.raises(LogUnavailable):
        fetch_job_log(repo, FailedJob(5, "j", "failure", None), tmp_path)


def test_primary_rate_limit_far_away_fails_fast(server):
    state = server.state
    path = r"/repos/octo-org/octo-repo/collaborators/writer/permission"
    reset = str(int(time.time()) + 3600)
    state.faults.append(
        Fault(
            "GET",
            path,
            403,
            {"message": "API rate limit exceeded for installation ID 1."},
            {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset},
        )
    )
    started = time.monotonic()
    with pytest.raises(GithubException) as err:
        _client(server, max_wait=1.0).get_repo("octo-org/octo-repo").get_collaborator_role_name(
            "writer"
        )
    assert err.value.status == 403 and time.monotonic() - started < 10
