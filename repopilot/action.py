"""The Action entry point (`python -m repopilot action`, DESIGN.md Contract 3).

`workflow_run` (failed): failed jobs -> their logs -> triage -> ONE upserted PR comment; with
`mode: analyze` / `mode: post` the two halves run in separate jobs joined by `result-file`.
`workflow_run` (success): the existing comment, if any, is edited to say the failure is resolved.
`push` / `pull_request` (the same-workflow mode: a job of the user's CI with `needs:` and
`if: failure()`): the current run (GITHUB_RUN_ID) is triaged the same way.
A missing or failing LLM never fails the action: the pattern verdicts are posted, with one line
in the comment and a `::warning::` saying why (github/llmstatus.py).
`issue_comment` (created): `/repopilot apply|reject <id>` -> checks -> one commit, or a reply.
Only failures of the action itself (configuration, API unreachable after retries) exit non-zero,
through `runner.fail`; everything else, refusals included, exits 0 and is recorded in the trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from repopilot.comment import markdown as md
from repopilot.comment.origin import origin_cell
from repopilot.comment.resolved import PassingRun, render_resolved
from repopilot.errors import PatternError
from repopilot.github import runner
from repopilot.github.approval import ApprovalConfig, decide, post_reply
from repopilot.github.client import ClientConfig, bot_login, describe_api_error, make_client
from repopilot.github.events import (
    CI_EVENTS,
    FAILED_CONCLUSIONS,
    CommentEvent,
    EventError,
    RunEvent,
    ci_run_event,
    is_own_run,
    parse_command,
    parse_comment_event,
    parse_run_event,
    read_event,
)
from repopilot.github.flows import analyze, post, read_only_token, resolve
from repopilot.github.llmstatus import llm_status
from repopilot.github.logsummary import run_summary
from repopilot.github.originsetup import HookedTriage, OriginSetup, OriginTriage, budget_from
from repopilot.github.render import comment_renderer
from repopilot.github.result import ResultFileError, RunResult
from repopilot.github.result import load as load_result
from repopilot.github.result import save as save_result
from repopilot.origin import OriginHook
from repopilot.records import TriageResult, Verdict
from repopilot.safety.redact import clean_for_model
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


def pipeline_triage(inp: runner.Inputs) -> tuple[HookedTriage, str | None]:
    """The core pipeline: patterns first, the LLM (if configured) only where allowed; and why
    the LLM cannot be used (no key, no SDK), or None. That never fails the run: the patterns'
    verdicts are posted without it."""
    from repopilot import pipeline
    from repopilot.llm.factory import make_llm

    skipped = None
    try:
        llm = make_llm(inp.llm, inp.model or None)
    except (ValueError, ImportError) as exc:
        llm, skipped = None, (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    classifier = pipeline.load_classifier(inp.patterns)
    repo = Path(inp.repo_path or ".")
    how = pipeline.Escalation(llm, mode=inp.escalate)

    def triage(path: str, origin: OriginHook | None = None) -> list[TriageResult]:
        # Only logs of jobs the API reports failed get here (flows.analyze): never `no_failure`.
        results = pipeline.triage(
            path, repo, how, classifier=classifier, origin=origin, assume_failed=True
        )
        return explained(path, results)

    return triage, skipped


def explained(path: str, results: list[TriageResult]) -> list[TriageResult]:
    """Each verdict's context replaced by the lines that explain it (evidence/explain.py): the
    comment's context block. The log is read again only around the failing step."""
    from repopilot import pipeline
    from repopilot.evidence.explain import explaining_lines
    from repopilot.logs.reader import open_logs

    try:
        jobs = open_logs(path)
    except Exception:  # the triage above read it; a second failure only costs the context
        return results
    out = []
    for job, result in zip(jobs, results, strict=False):
        cj = pipeline.ClassifiedJob(job, result.verdict)
        lines = explaining_lines(pipeline.window_lines(cj), result.verdict)
        verdict = result.verdict.model_copy(update={"context": lines or result.verdict.context})
        out.append(result.model_copy(update={"verdict": verdict}))
    return out + results[len(out) :]


def origin_setup(
    inp: runner.Inputs, env: Mapping[str, str], with_hook: OriginTriage | None
) -> OriginSetup | None:
    """How failed jobs get their origin (issue 14); None when `origin-budget` is 0 (off).
    `with_hook`: the pipeline taking the origin hook (None: decided after a triage passed in)."""
    from repopilot import pipeline
    from repopilot.engine.signature import signature_text

    try:
        budget = budget_from(env)
    except ValueError as exc:
        raise runner.ConfigError(str(exc)) from exc
    if budget == 0:
        return None
    classifier = pipeline.load_classifier(inp.patterns)

    def classify(path: str) -> list[Verdict]:
        return [cj.verdict for cj in pipeline.classified_jobs(path, classifier)]

    return OriginSetup(classify, signature_text, budget, with_hook)


def main(env: Mapping[str, str] | None = None, triage: Triage | None = None) -> int:
    """Run once for the event in the environment; the exit status for the runner."""
    env = os.environ if env is None else env
    trace = TraceWriter(goal=f"action {env.get('GITHUB_EVENT_NAME', '')}", run_id=_trace_id(env))
    try:
        inp = runner.read_inputs(env)
        data = read_event(inp.event_path)
        if inp.event_name == "workflow_run":
            result = on_workflow_run(inp, env, parse_run_event(data), triage)
        elif inp.event_name == "issue_comment":
            result = on_issue_comment(inp, parse_comment_event(data))
        elif inp.event_name in CI_EVENTS:
            result = on_ci_run(inp, env, data, triage)
        else:
            result = Outcome(
                "ignored", f"RepoPilot has nothing to do on `{inp.event_name}` events."
            )
    except (runner.ConfigError, EventError, PatternError, ResultFileError) as exc:
        return _failed(env, trace, str(exc))
    except Exception as exc:
        message = describe_api_error(exc)
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


def on_workflow_run(
    inp: runner.Inputs, env: Mapping[str, str], event: RunEvent, triage: Triage | None
) -> Outcome:
    run = event.workflow_run
    if run.conclusion == "success" and inp.mode != "analyze":
        gh, bot = _client(inp)
        if is_own_run(event, env.get("GITHUB_WORKFLOW_REF"), bot):
            return Outcome("ignored", f"RepoPilot: run {run.id} is RepoPilot's own.")
        return _resolve(inp, gh.get_repo(event.repository.full_name or inp.repository), event, bot)
    if run.conclusion not in FAILED_CONCLUSIONS:
        return Outcome(
            "ignored", f"RepoPilot: run {run.id} concluded `{run.conclusion}`; nothing to do."
        )
    gh, bot = _client(inp)
    if is_own_run(event, env.get("GITHUB_WORKFLOW_REF"), bot):
        return Outcome("ignored", f"RepoPilot: run {run.id} is RepoPilot's own; not triaged.")
    return triage_and_post(inp, env, event, triage, gh, bot)


def on_ci_run(
    inp: runner.Inputs, env: Mapping[str, str], data: dict, triage: Triage | None
) -> Outcome:
    """The same-workflow mode: triage the run this job belongs to; no failed job (a job with
    `if: always()`) means the run is passing, and an existing comment is marked resolved."""
    event = ci_run_event(inp.event_name, data, env, inp.server_url)
    gh, bot = _client(inp)
    if is_own_run(event, None, bot):
        return Outcome("ignored", f"RepoPilot: run {event.workflow_run.id} is RepoPilot's own.")
    return triage_and_post(inp, env, event, triage, gh, bot, same_run=True)


def _analyze(inp, env, repo, event: RunEvent, triage: Triage | None) -> RunResult:
    skipped = None
    if triage is None:
        own, skipped = pipeline_triage(inp)
        found = analyze(repo, event, own, origin_setup(inp, env, own))
    else:
        found = analyze(repo, event, triage, origin_setup(inp, env, None))
    status = llm_status(inp.llm, skipped, found.results)
    if status.skipped:
        runner.warning(
            f"RepoPilot: the LLM was skipped: {status.skipped}. "
            "The pattern verdicts are posted without it."
        )
    return found.model_copy(update={"llm": status})


def triage_and_post(
    inp: runner.Inputs,
    env: Mapping[str, str],
    event: RunEvent,
    triage: Triage | None,
    gh,
    bot: str,
    same_run: bool = False,
) -> Outcome:
    run = event.workflow_run
    full_name = event.repository.full_name or inp.repository
    repo = gh.get_repo(full_name)
    if inp.mode == "post":
        found = load_result(inp.result_file, full_name, run.id)
    else:
        found = _analyze(inp, env, repo, event, triage)
    outputs, details = _outputs(found), {"run_id": run.id, "jobs": [j.id for j in found.jobs]}
    details["job_traces"] = [j.result.trace for j in found.jobs]
    details["origins"] = [
        j.result.origin.model_dump() if j.result.origin else None for j in found.jobs
    ]
    details["llm"] = found.llm.model_dump()
    if not found.jobs:
        if same_run and inp.mode != "analyze":
            return _resolve(inp, repo, event, bot)
        return Outcome("ignored", f"RepoPilot: run {run.id} has no failed jobs.", outputs, details)
    if inp.mode == "analyze":
        save_result(inp.result_file, found)
        print(run_summary(found, f"posted by the post job (result in {inp.result_file})"))
        return Outcome("analyzed", _job_table(found), outputs, details)
    render = comment_renderer(found, inp.server_url, inp.signing_key)
    proposals = [j.result.proposal for j in found.jobs if j.result.proposal]
    try:
        posted = post(repo, event, render, bot, inp.dry_run, proposals, inp.max_wait)
    except Exception as exc:
        if not (same_run and read_only_token(exc)):
            raise
        # A fork's `pull_request` run gets a read-only token: say so, keep the verdicts visible.
        runner.warning(
            "RepoPilot cannot comment with this run's token (a pull request from a fork gets a "
            "read-only one); the comment is in the job summary. The workflow_run example "
            "(examples/workflows/repopilot.yml) comments on fork pull requests."
        )
        print(run_summary(found, "not posted (read-only token); see the job summary"))
        body = render(None, None)
        return Outcome("summarized", f"RepoPilot could not post:\n\n{body}", outputs, details)
    details["pr"] = posted.pr.number if posted.pr else None
    if posted.comment is None or posted.pr is None:
        why = "dry run" if inp.dry_run else "no pull request for this run"
        print(run_summary(found, f"not posted ({why}); see the job summary"))
        summary = f"RepoPilot ({why}): the comment below was not posted.\n\n{posted.body}"
        return Outcome("summarized", summary, outputs, details)
    outputs["comment-url"] = posted.comment.html_url
    details["comment_id"] = posted.comment.id
    details["suggested"] = posted.suggested
    print(run_summary(found, posted.comment.html_url))
    summary = f"RepoPilot updated its comment on #{posted.pr.number}: {posted.comment.html_url}"
    return Outcome("commented", f"{summary}\n\n{_job_table(found)}", outputs, details)


def _resolve(inp: runner.Inputs, repo, event: RunEvent, bot: str) -> Outcome:
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
        print(f"RepoPilot: run {run.id} passed; {note}.")
        return Outcome("ignored", f"RepoPilot: run {run.id} passed; {note}.", outputs, details)
    details.update(resolved=True, pr=done.pr.number if done.pr else None)
    if done.comment is None:
        return Outcome("summarized", f"RepoPilot (dry run): would post\n\n{done.body}", outputs)
    outputs["comment-url"] = done.comment.html_url
    print(f"RepoPilot: run {run.id} passed; {done.comment.html_url} now says it is resolved.")
    summary = f"RepoPilot: run {run.id} passed; marked resolved: {done.comment.html_url}"
    return Outcome("resolved", summary, outputs, details)


def _outputs(found: RunResult) -> dict[str, str]:
    """Outputs describe the first failed job in the run's job order."""
    first = found.jobs[0].result if found.jobs else None
    return {
        "category": first.verdict.category if first else "",
        "decided-by": first.verdict.decided_by if first else "",
        "comment-url": "",
        "proposal-id": first.proposal.id if first and first.proposal else "",
        "origin": first.origin.origin if first and first.origin else "",
    }


def _job_table(found: RunResult) -> str:
    rows = ["| Job | Category | Decided by | Origin | Title |", "|---|---|---|---|---|"]
    for job in found.jobs:
        v, origin = job.result.verdict, origin_cell(job.result.origin)
        # job names and titles are attacker text (a fork's workflow names its jobs): cleaned,
        # redacted and made inert like log lines (SECURITY.md §19)
        title = md.cell(clean_for_model(v.title).text, 200)
        name = md.cell(clean_for_model(job.name).text, 120)
        rows.append(f"| {name} | `{v.category}` | {v.decided_by} | {origin} | {title} |")
    return "\n".join(rows)


def on_issue_comment(inp: runner.Inputs, event: CommentEvent) -> Outcome:
    if parse_command(event.comment.body) is None or event.action != "created":
        return Outcome("ignored", "RepoPilot: not a `/repopilot` command; nothing to do.")
    if inp.mode == "analyze":  # the read-only job never acts on commands
        return Outcome("ignored", "RepoPilot: `mode: analyze` does not handle commands.")
    gh, bot = _client(inp)
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
    summary = f"RepoPilot `{decision.outcome}`: {decision.message or 'no command'}"
    return Outcome(decision.outcome, summary, outputs, details)
