"""The Action entry point (`python -m repopilot action`, DESIGN.md Contract 3).

`workflow_run` (failed): failed jobs -> their logs -> triage -> ONE upserted PR comment.
`issue_comment` (created): `/repopilot apply|reject <id>` -> checks -> one commit, or a reply.
Only failures of the action itself (configuration, API unreachable after retries) exit non-zero,
through `runner.fail`; everything else, refusals included, exits 0 and is recorded in the trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from repopilot import github as edge
from repopilot.github import runner
from repopilot.records import TriageResult, Verdict
from repopilot.trace import TraceWriter

Triage = Callable[[str], list[TriageResult]]
"""The seam to the core: a log file path -> one TriageResult per job in it."""


@dataclass
class Outcome:
    """What the action did: the outputs, the summary markdown, and the trace outcome word."""

    outcome: str
    summary: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)


def classify_only(patterns: str | None) -> Triage:
    """Deterministic triage: the pattern library alone (LLM escalation plugs in here later)."""
    from repopilot.classify import Classifier
    from repopilot.logs import open_logs
    from repopilot.patterns import load_library

    classifier = Classifier(load_library(patterns))
    return lambda path: [TriageResult(verdict=classifier.classify(j)) for j in open_logs(path)]


def main(env: Mapping[str, str] | None = None, triage: Triage | None = None) -> int:
    env = os.environ if env is None else env
    trace = TraceWriter(goal=f"action {env.get('GITHUB_EVENT_NAME', '')}", run_id=_trace_id(env))
    try:
        inp = runner.read_inputs(env)
        data = edge.read_event(inp.event_path)
        if inp.event_name == "workflow_run":
            result = on_workflow_run(inp, env, edge.parse_run_event(data), triage)
        elif inp.event_name == "issue_comment":
            result = on_issue_comment(inp, edge.parse_comment_event(data))
        else:
            result = Outcome(
                "ignored", f"RepoPilot has nothing to do on `{inp.event_name}` events."
            )
    except (runner.ConfigError, edge.EventError) as exc:
        return _failed(env, trace, str(exc))
    except Exception as exc:
        message = edge.describe_api_error(exc)
        if message is None:
            raise
        return _failed(env, trace, message)
    trace.add(
        "decision", tool_name=inp.event_name, result={"outcome": result.outcome, **result.details}
    )
    trace.finish(result.outcome)
    runner.write_outputs(env, result.outputs)
    runner.write_summary(env, result.summary)
    return 0


def _failed(env: Mapping[str, str], trace: TraceWriter, message: str) -> int:
    trace.add("error", error=message)
    trace.finish("error")
    return runner.fail(env, message)


def _trace_id(env: Mapping[str, str]) -> str | None:
    run = env.get("GITHUB_RUN_ID")
    return f"action-{run}-{env.get('GITHUB_RUN_ATTEMPT', '1')}" if run else None


def _client(inp: runner.Inputs):
    cfg = edge.ClientConfig(
        token=inp.token,
        api_url=inp.api_url,
        server_url=inp.server_url,
        timeout=float(os.environ.get("REPOPILOT_GITHUB_TIMEOUT", "30")),
        max_wait=float(os.environ.get("REPOPILOT_GITHUB_MAX_WAIT", "60")),
    )
    gh = edge.make_client(cfg)
    return gh, edge.bot_login(gh, inp.bot_login)


def on_workflow_run(
    inp: runner.Inputs, env: Mapping[str, str], event: edge.RunEvent, triage: Triage | None
) -> Outcome:
    run = event.workflow_run
    if run.conclusion not in edge.FAILED_CONCLUSIONS:
        return Outcome(
            "ignored", f"RepoPilot: run {run.id} concluded `{run.conclusion}`; nothing to do."
        )
    gh, bot = _client(inp)
    if edge.is_own_run(event, env.get("GITHUB_WORKFLOW_REF"), bot):
        return Outcome("ignored", f"RepoPilot: run {run.id} is RepoPilot's own; not triaged.")
    repo = gh.get_repo(event.repository.full_name or inp.repository)
    jobs = edge.failed_jobs(repo, run.id)
    if not jobs:
        return Outcome(
            "ignored", f"RepoPilot: run {run.id} has no failed jobs in its latest attempt."
        )
    results = _triage_jobs(repo, run.id, jobs, triage or classify_only(inp.patterns))
    pr = edge.find_pull(repo, event)
    from repopilot.github.report import comment_body

    body = comment_body(inp, event, jobs, results, pr)
    first = results[0]
    outputs = {
        "category": first.verdict.category,
        "decided-by": first.verdict.decided_by,
        "comment-url": "",
        "proposal-id": first.proposal.id if first.proposal else "",
    }
    details = {"run_id": run.id, "jobs": [j.id for j in jobs], "pr": pr.number if pr else None}
    if inp.dry_run or pr is None:
        why = "dry run" if inp.dry_run else "no pull request for this run"
        summary = f"RepoPilot ({why}): the comment below was not posted.\n\n{body}"
        return Outcome("summarized", summary, outputs, details)
    posted = edge.upsert_comment(repo, pr.number, body, bot)
    outputs["comment-url"] = posted.html_url
    details["comment_id"] = posted.id
    summary = f"RepoPilot commented on #{pr.number}: {posted.html_url}\n\n{body}"
    return Outcome("commented", summary, outputs, details)


def _triage_jobs(repo, run_id: int, jobs, triage: Triage) -> list[TriageResult]:
    """One TriageResult per failed job, in job order; the run zip stands in for a lost job log."""
    workdir = edge.fresh_workdir()
    zip_results: list[TriageResult] | None = None
    out: list[TriageResult] = []
    try:
        for job in jobs:
            try:
                fetched = edge.fetch_job_log(repo, job, workdir)
                found = triage(str(fetched.path))
                out.append(found[0] if found else _no_log(job, "empty log"))
                continue
            except edge.LogUnavailable as why:
                reason = str(why)
            if zip_results is None:
                try:
                    zip_results = triage(str(edge.fetch_run_zip(repo, run_id, workdir).path))
                except edge.LogUnavailable as why:
                    zip_results, reason = [], f"{reason}; {why}"
            out.append(_pick(zip_results, job.name) or _no_log(job, reason))
    finally:
        edge.cleanup(workdir)
    return out


def _pick(results: list[TriageResult], job_name: str) -> TriageResult | None:
    named = [r for r in results if (r.verdict.job or "").strip() == job_name.strip()]
    failing = [r for r in named or results if r.verdict.failed]
    if named:
        return (failing or named)[0]
    return failing[0] if len(failing) == 1 else None


def _no_log(job, reason: str) -> TriageResult:
    verdict = Verdict(
        source=f"job {job.id}",
        job=job.name,
        category="unknown",
        title="The job log could not be downloaded",
        hint=f"{reason}. Logs expire; re-run the job to triage it.",
    )
    return TriageResult(verdict=verdict)


def on_issue_comment(inp: runner.Inputs, event: edge.CommentEvent) -> Outcome:
    if edge.parse_command(event.comment.body) is None or event.action != "created":
        return Outcome("ignored", "RepoPilot: not a `/repopilot` command; nothing to do.")
    gh, bot = _client(inp)
    repo = gh.get_repo(event.repository.full_name or inp.repository)
    cfg = edge.ApprovalConfig(bot, inp.approvers, inp.signing_key, inp.dry_run)
    decision = edge.decide(gh, repo, event, cfg)
    details = {
        "proposal_id": decision.proposal_id,
        "commit": decision.commit_sha,
        "why": decision.message,
    }
    outputs = {"proposal-id": decision.proposal_id or "", "comment-url": ""}
    if decision.outcome != "ignored" and not inp.dry_run:
        posted = edge.post_reply(repo, event, decision, bot)
        outputs["comment-url"] = posted.html_url if posted else ""
    summary = f"RepoPilot `{decision.outcome}`: {decision.message or 'no command'}"
    return Outcome(decision.outcome, summary, outputs, details)
