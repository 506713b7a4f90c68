"""The GitHub edge: the only package that imports PyGithub.

Entry points use what is re-exported here; the core never imports this package.
"""

from repopilot.github.approval import ApprovalConfig, Decision, decide, post_reply
from repopilot.github.client import (
    ClientConfig,
    bot_login,
    describe_api_error,
    make_client,
)
from repopilot.github.events import (
    FAILED_CONCLUSIONS,
    CommentEvent,
    EventError,
    RunEvent,
    is_own_run,
    parse_command,
    parse_comment_event,
    parse_run_event,
    read_event,
)
from repopilot.github.flows import Posted, analyze, post
from repopilot.github.prs import PullRef, find_pull, upsert_comment
from repopilot.github.render import comment_renderer
from repopilot.github.result import RunResult
from repopilot.github.result import load as load_result
from repopilot.github.result import save as save_result
from repopilot.github.runs import (
    FailedJob,
    LogUnavailable,
    cleanup,
    failed_jobs,
    fetch_job_log,
    fetch_run_zip,
    fresh_workdir,
)

__all__ = [
    "Posted",
    "RunResult",
    "analyze",
    "comment_renderer",
    "load_result",
    "post",
    "save_result",
    "FAILED_CONCLUSIONS",
    "ApprovalConfig",
    "ClientConfig",
    "CommentEvent",
    "Decision",
    "EventError",
    "FailedJob",
    "LogUnavailable",
    "PullRef",
    "RunEvent",
    "bot_login",
    "cleanup",
    "decide",
    "describe_api_error",
    "failed_jobs",
    "fetch_job_log",
    "fetch_run_zip",
    "find_pull",
    "fresh_workdir",
    "is_own_run",
    "make_client",
    "parse_command",
    "parse_comment_event",
    "parse_run_event",
    "post_reply",
    "read_event",
    "upsert_comment",
]
