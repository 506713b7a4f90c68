"""The Action's event handlers that need no pipeline: answering `/repopilot` commands and
marking a comment resolved on a green run, plus what every handler returns (`Outcome`) and the
authenticated client. `repopilot/action/entry.py` dispatches to them and to the triage flows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from repopilot.action import runner
from repopilot.action.approval import ApprovalConfig, Decision, decide, log_line, post_reply
from repopilot.action.flows import resolve
from repopilot.action.learn_command import LearnConfig, on_learn
from repopilot.comment.command import LearnCommand, parse_learn
from repopilot.comment.resolved import PassingRun, render_resolved
from repopilot.github.client import ClientConfig, Github, Repository, bot_login, make_client
from repopilot.github.events import CommentEvent, RunEvent, parse_command


@dataclass
class Outcome:
    """What the action did: the outputs, the summary markdown, and the trace outcome word."""

    outcome: str
    summary: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)


def client_for(inp: runner.Inputs) -> tuple[Github, str]:
    cfg = ClientConfig(
        token=inp.token,
        api_url=inp.api_url,
        server_url=inp.server_url,
        timeout=inp.timeout,
        max_wait=inp.max_wait,
        pace=inp.pace,
    )
    gh = make_client(cfg)
    return gh, bot_login(gh, inp.bot_login)


def resolve_comment(inp: runner.Inputs, repo: Repository, event: RunEvent, bot: str) -> Outcome:
    """A passing run: the PR's RepoPilot comment, if there is one, says the failure is resolved."""
    run = event.workflow_run
    passing = PassingRun(
        repo=event.repository.full_name or inp.repository,
        run_id=run.id,
        head_sha=run.head_sha,
        run_url=run.html_url or "",
        signing_key=inp.signing_key,
    )
    done = resolve(
        repo,
        event,
        lambda pr, prev: render_resolved(prev, replace(passing, pr_number=pr.number)),
        bot,
        inp.dry_run,
    )
    outputs = {"category": "", "decided-by": "", "comment-url": "", "proposal-id": ""}
    outputs["origin"] = ""
    details: dict[str, object] = {"run_id": run.id, "resolved": False}
    if done is None or not done.body:
        note = "no RepoPilot comment to update" if done is None else "already marked resolved"
        note = f"not marked resolved: {done.skipped}" if done and done.skipped else note
        print(f"RepoPilot: run {run.id} passed; {note}.")
        return Outcome("ignored", f"RepoPilot: run {run.id} passed; {note}.", outputs, details)
    details.update(resolved=True, pr=done.pr.number if done.pr else None)
    if done.comment is None:
        return Outcome("summarized", f"RepoPilot (dry run): would post\n\n{done.body}", outputs)
    outputs["comment-url"] = done.comment.html_url
    print(f"RepoPilot: run {run.id} passed; {done.comment.html_url} now says it is resolved.")
    summary = f"RepoPilot: run {run.id} passed; marked resolved: {done.comment.html_url}"
    return Outcome("resolved", summary, outputs, details)


def on_issue_comment(inp: runner.Inputs, event: CommentEvent) -> Outcome:
    learning = parse_learn(event.comment.body or "")
    if learning is not None and event.action == "created" and inp.mode != "analyze":
        return on_learn_comment(inp, event, learning)
    if parse_command(event.comment.body) is None or event.action != "created":
        return Outcome("ignored", "RepoPilot: not a `/repopilot` command; nothing to do.")
    if inp.mode == "analyze":  # the read-only job never acts on commands
        return Outcome("ignored", "RepoPilot: `mode: analyze` does not handle commands.")
    gh, bot = client_for(inp)
    repo = gh.get_repo(event.repository.full_name or inp.repository)
    cfg = ApprovalConfig(bot, inp.approvers, inp.signing_key, inp.dry_run, inp.max_wait)
    decision = decide(gh, repo, event, cfg)
    details: dict[str, object] = {
        "proposal_id": decision.proposal_id,
        "commit": decision.commit_sha,
        "why": decision.message,
    }
    outputs = {"category": "", "decided-by": "", "comment-url": ""}
    outputs["proposal-id"] = decision.proposal_id or ""
    if decision.outcome != "ignored" and not inp.dry_run:
        posted = post_reply(repo, event, decision, bot, inp.max_wait)
        outputs["comment-url"] = posted.html_url if posted else ""
    print(log_line(decision, outputs["comment-url"]), flush=True)  # the apply job's own log
    summary = f"RepoPilot `{decision.outcome}`: {decision.message or 'no command'}"
    return Outcome(decision.outcome, summary, outputs, details)


def on_learn_comment(inp: runner.Inputs, event: CommentEvent, cmd: LearnCommand) -> Outcome:
    """`/repopilot learn ...` (issue 21): action/learn_command.py decides, the reply says what."""
    gh, bot = client_for(inp)
    repo = gh.get_repo(event.repository.full_name or inp.repository)
    cfg = LearnConfig(bot, inp.approvers, inp.signing_key, inp.dry_run, inp.patterns, inp.log_cap)
    done = on_learn(repo, event, cmd, cfg)
    outputs = {"category": "", "decided-by": "", "comment-url": "", "proposal-id": ""}
    if done.outcome != "ignored" and done.message and not inp.dry_run:
        posted = post_reply(repo, event, Decision(done.outcome, None, done.message), bot)
        outputs["comment-url"] = posted.html_url if posted else ""
    details: dict[str, object] = {"pull": done.url, "why": done.message}
    return Outcome(done.outcome, f"RepoPilot `{done.outcome}`: {done.message}", outputs, details)
