"""`/repopilot learn <id>` and `/repopilot learn <job id> L<line> [category]` (issue 21).

The same checks as apply (action/approval.py): a `created` comment on a pull request, not from a
bot, by a collaborator whose role is an approver; the offer sits in a marker of a comment the bot
itself wrote on this pull request, the pattern shown hashes to the marker's sha256 (and the
marker's HMAC verifies with the signing key when one is set). Then ONE pull request against the
default branch adds the pattern file; the reply links it. Every refusal is a reply saying why.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repopilot.action.learn import LEARN_MARK, repository_library, safe_for_engine, sign
from repopilot.action.learn_placement import placed_on_default, pull_body
from repopilot.commands.learn import lint_one
from repopilot.comment.command import LearnCommand
from repopilot.comment.marker import Marker, parse_marker, verify_marker
from repopilot.engine.learn.learner import LearnRequest, learn, to_yaml
from repopilot.engine.library.loader import load_file
from repopilot.errors import InputError
from repopilot.github.client import GithubException, Repository
from repopilot.github.events import CommentEvent
from repopilot.github.learn_pull import open_learn_pull
from repopilot.github.prs import bot_comments
from repopilot.github.roles import refusal
from repopilot.github.runs import FailedJob, cleanup, failed_jobs, fetch_job_log, fresh_workdir
from repopilot.records import CATEGORIES


@dataclass(frozen=True, slots=True)
class LearnDone:
    """`learned` (a pull request opened), `already-learned`, `would-learn` (dry run), `refused`
    or `ignored`; `message` is the reply."""

    outcome: str
    message: str = ""
    url: str | None = None


class _Refused(Exception):
    pass


@dataclass(frozen=True, slots=True)
class LearnConfig:
    bot: str
    approvers: frozenset[str]
    signing_key: str | None
    dry_run: bool
    patterns: str | None  # the `patterns` input: the library the pattern sits on
    log_cap: int  # REPOPILOT_MAX_LOG_BYTES: the log read again is cut where the comment's was


def on_learn(
    repo: Repository, event: CommentEvent, cmd: LearnCommand, cfg: LearnConfig
) -> LearnDone:
    if event.action != "created" or event.issue.pull_request is None:
        return LearnDone("ignored")
    if event.comment.user.login == cfg.bot:
        return LearnDone("ignored")
    said = (event.comment.body or "").strip()
    try:
        _check_commenter(repo, event, cfg)
        marker, body = _find_marker(repo, event, cfg)
        if cmd.offer_id is not None:
            full = (event.repository.full_name or "").lower()
            offers = _learn_marker(body, event.issue.number, full, cfg)
            text, retired = _offered(offers, body, cmd.offer_id)
        else:
            text, retired = _relearn(repo, marker.run_id, cmd, cfg)
        pattern_id = _check_pattern(text)
        if cfg.dry_run:
            return LearnDone("would-learn", f"Dry run: `{said}` passed every check.")
        try:
            # one pattern per id, the contradicted learned ones out (engine/learn/placement.py)
            placed, unread = placed_on_default(repo, text, pattern_id, retired)
            body = pull_body(event, pattern_id, placed, unread)
            pull = open_learn_pull(repo, pattern_id, placed.changes,
                                   f"RepoPilot: learn pattern {pattern_id}", body)  # fmt: skip
        except GithubException as exc:
            raise _Refused(
                f"GitHub did not let RepoPilot open the pull request ({exc.status})"
            ) from None
    except _Refused as why:
        return LearnDone("refused", f"`{said}` was not carried out: {why}")
    if not pull.created:
        return LearnDone(
            "already-learned",
            f"A pull request for `{pattern_id}` exists already: {pull.url}",
            pull.url,
        )
    return LearnDone(
        "learned",
        f"Opened {pull.url} adding the pattern `{pattern_id}`: once it is merged into the default branch, this failure is decided without the LLM.",
        pull.url,
    )


def _check_commenter(repo: Repository, event: CommentEvent, cfg: LearnConfig) -> None:
    if (why := refusal(repo, event.comment.user, cfg.approvers, "learning")) is not None:
        raise _Refused(why)


def _find_marker(repo: Repository, event: CommentEvent, cfg: LearnConfig) -> tuple[Marker, str]:
    """The latest comment by the bot on this pull request whose marker names this pull request
    and repository (verified with the signing key when one is set), and its body."""
    number = event.issue.number
    full = (event.repository.full_name or "").lower()
    for comment in reversed(bot_comments(repo, number, cfg.bot)):
        body = comment.body or ""
        marker = parse_marker(body)
        if marker is None or marker.pr != number or marker.repo.lower() != full:
            continue  # a marker copied from another pull request proves nothing here
        if cfg.signing_key and not verify_marker(marker, cfg.signing_key):
            raise _Refused("the comment's marker does not verify with the signing key")
        return marker, body
    raise _Refused(f"no RepoPilot comment by `{cfg.bot}` on this pull request")


def _learn_marker(body: str, number: int, full: str, cfg: LearnConfig) -> dict[str, Any]:
    # the LAST marker: the learning section is appended after everything else the comment
    # shows, and what comes before it holds text shown verbatim (a proposal's diff) that may
    # copy a marker (with other offers, or patterns to retire)
    m = next(reversed(list(LEARN_MARK.finditer(body))), None)
    data = None
    if m is not None:
        try:
            data = json.loads(m.group(1))
        except ValueError:
            data = None
    if not isinstance(data, dict) or data.get("pr") != number:
        raise _Refused("the RepoPilot comment offers no pattern to learn")
    if str(data.get("repo", "")).lower() != full:
        raise _Refused("the learning marker names another repository")
    if cfg.signing_key and not hmac.compare_digest(
        str(data.get("hmac", "")), sign(data, cfg.signing_key)
    ):
        raise _Refused("the learning marker's signature does not verify with the signing key")
    return data


def _offered(marker: dict[str, Any], body: str, offer_id: str) -> tuple[str, tuple[str, ...]]:
    """The offered pattern's text, and the learned patterns it retires (the offer's record)."""
    offer = next((o for o in marker.get("offers", []) if o.get("id") == offer_id), None)
    if offer is None:
        raise _Refused(f"no learnable pattern `{offer_id}` in the RepoPilot comment")
    anchor = f"<!-- repopilot-learn-yaml:{offer_id} -->\n"
    at = body.rfind(anchor)  # the section's own, after any copy (see _learn_marker)
    m = (
        re.compile(r"(`{3,})yaml\n(.*?\n)\1(?:\n|$)", re.DOTALL).match(body, at + len(anchor))
        if at >= 0
        else None
    )
    if m is None:
        raise _Refused(f"the pattern of `{offer_id}` is missing from the RepoPilot comment")
    text = m.group(2)
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != offer.get("sha256"):
        raise _Refused(
            "the pattern in the comment does not match the hash recorded when it was offered"
        )
    retired = offer.get("retired")
    if not isinstance(retired, list):
        return text, ()
    return text, tuple(r for r in retired if isinstance(r, str))


def _relearn(
    repo: Repository, run_id: int, cmd: LearnCommand, cfg: LearnConfig
) -> tuple[str, tuple[str, ...]]:
    """`/repopilot learn <job id> L<line> [category]`: the job's log, read again through the API."""
    category = cmd.category or "other"
    if category not in CATEGORIES:
        raise _Refused(f"`{category}` is not a category ({', '.join(CATEGORIES)})")
    job_id = int(cmd.job or 0)
    if all(j.id != job_id for j in failed_jobs(repo, run_id)):
        raise _Refused(
            f"job `{cmd.job}` is not a failed job of run {run_id}, which the comment reports"
        )
    workdir = fresh_workdir()
    try:
        try:
            job = FailedJob(job_id, str(job_id), "failure", None)
            log = fetch_job_log(repo, job, workdir, cfg.log_cap)
        except Exception as exc:  # noqa: BLE001  (the log expired or is gone: say so)
            raise _Refused(f"the log of job {job_id} is no longer available ({exc})") from None
        library = repository_library(repo, cfg.patterns)
        req = LearnRequest(str(log.path), int(cmd.line or 0), category,  # type: ignore[arg-type]
                           source_name=f"job {job_id} of run {run_id}")  # fmt: skip
        try:
            got = learn(req, library, lint_one)
            return to_yaml(got), got.retired
        except InputError as exc:
            raise _Refused(str(exc).replace(str(log.path), f"job {job_id}")) from None
    finally:
        cleanup(workdir)


def _check_pattern(text: str) -> str:
    """The file loads as a pattern file of one safe pattern; its id."""
    with tempfile.TemporaryDirectory(prefix="repopilot-learn-") as tmp:
        path = Path(tmp) / "learned.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            loaded = load_file(path)
        except InputError as exc:
            raise _Refused(
                f"the pattern does not load: {str(exc).replace(str(path), 'pattern')}"
            ) from None
    if len(loaded) != 1:
        raise _Refused("the file must hold exactly one pattern")
    why = safe_for_engine(loaded[0])
    if why:
        raise _Refused(f"the pattern is not safe for the engine: {why}")
    return loaded[0].id
