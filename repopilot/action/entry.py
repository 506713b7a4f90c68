"""The Action entry point (`python -m repopilot action`, docs/CONTRACTS.md Contract 3).

`workflow_run` (failed): failed jobs -> their logs -> triage -> ONE upserted PR comment; with
`mode: analyze` / `mode: post` the two halves run in separate jobs joined by `result-file`.
`workflow_run` (success): the existing comment, if any, is edited to say the failure is resolved.
`push` / `pull_request` (the same-workflow mode: a job of the user's CI with `needs:` and
`if: failure()`): the current run (GITHUB_RUN_ID) is triaged the same way.
A missing or failing LLM never fails the action: the pattern verdicts are posted, with one line
in the comment and a `::warning::` saying why (action/llm_status.py).
`issue_comment` (created): `/repopilot apply|reject <id>` -> checks -> one commit, or a reply.
Only failures of the action itself (configuration, API unreachable after retries) exit non-zero,
through `runner.fail`; everything else, refusals included, exits 0 and is recorded in the trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from repopilot.action import runner
from repopilot.action.annotations import emit as emit_annotations
from repopilot.action.flows import analyze, post, read_only_token
from repopilot.action.handlers import Outcome, client_for, on_issue_comment, resolve_comment
from repopilot.action.learn import offer_learning, repository_library
from repopilot.action.llm_status import llm_status
from repopilot.action.log_summary import run_summary
from repopilot.action.memory import Memory, with_memory
from repopilot.action.render import comment_renderer
from repopilot.action.report_mode import report_outcome
from repopilot.action.result_file import ResultFileError, RunResult
from repopilot.action.result_file import load as load_result
from repopilot.action.result_file import save as save_result
from repopilot.action.verify import report_failed_fix, tests_a_fix
from repopilot.comment import markdown as md
from repopilot.comment.origin import is_guess, origin_cell, told
from repopilot.errors import PatternError
from repopilot.github.client import describe_api_error
from repopilot.github.events import (
    CI_EVENTS,
    FAILED_CONCLUSIONS,
    EventError,
    RunEvent,
    ci_run_event,
    is_own_run,
    parse_comment_event,
    parse_run_event,
    read_event,
)
from repopilot.github.origin_setup import BaseLog, HookedTriage, OriginSetup, OriginTriage
from repopilot.github.runs import LogCaps
from repopilot.origin.decide import OriginHook
from repopilot.records import Verdict
from repopilot.run_records import TriageResult
from repopilot.safety.redact import clean_for_model
from repopilot.settings import ConfigError, GitHubSettings, Settings
from repopilot.trace import TraceWriter

if TYPE_CHECKING:  # the engine is imported only when a run triages
    from repopilot.engine.classify import Classifier
    from repopilot.engine.library.loader import Pattern
    from repopilot.github.client import Github

Triage = Callable[[str], list[TriageResult]]
"""The seam to the core: a log file path -> one TriageResult per job in it."""


def action_classifier(
    inp: runner.Inputs, settings: Settings, library: list[Pattern] | None = None
) -> Classifier:
    """The run's one classifier (triage and the origin lookups share it): the `patterns` input's
    library, or `library`, the repository's own patterns on top (action/learn.py, issue 21),
    with the settings' scan engine and cache directory."""
    from repopilot import pipeline
    from repopilot.engine.classify import Classifier

    engine = settings.engine
    if library:
        return Classifier(library, engine=engine.scan_engine, cache_dir=engine.cache_dir)
    return pipeline.load_classifier(inp.patterns, engine=engine)


def pipeline_triage(
    inp: runner.Inputs, settings: Settings, classifier: Classifier
) -> tuple[HookedTriage, str | None]:
    """The core pipeline: patterns first, the LLM (if configured) only where allowed, within the
    configured agent limits; and why the LLM cannot be used (no key, no SDK), or None. That never
    fails the run: the patterns' verdicts are posted without it. The evidence and its context
    come from the pipeline, as for `repopilot triage`."""
    from repopilot import pipeline
    from repopilot.action.base_log import compared
    from repopilot.agent.limits import Limits
    from repopilot.llm.factory import make_llm
    from repopilot.proposal.policy import Policy
    from repopilot.proposal.validate import validator_for

    skipped = None
    try:
        llm = make_llm(settings.llm)
    except (ValueError, ImportError) as exc:
        llm, skipped = None, (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    repo = Path(inp.repo_path or ".")
    policy = Policy(exec_path=settings.exec_path)
    how = pipeline.Escalation(
        llm,
        mode=inp.escalate,
        limits=Limits.configured(settings.agent),
        validator=lambda checkout: validator_for(checkout, policy),
        exec_path=settings.exec_path,
        # No `.git` there: no step checked the head out (the example skips a fork PR's head).
        checkout=(repo / ".git").exists(),
    )

    def triage(
        path: str, origin: OriginHook | None = None, base_log: BaseLog | None = None
    ) -> list[TriageResult]:
        # Only logs of jobs the API reports failed get here (flows.analyze): never `no_failure`.
        # `base_log`: the job's last green log on the base branch (issue 20, action/base_log.py).
        return compared(
            classifier,
            base_log,
            lambda: pipeline.triage(
                path,
                repo,
                how,
                classifier=classifier,
                trace_dir=settings.trace_dir,
                origin=origin,
                assume_failed=True,
            ),
        )

    return triage, skipped


def origin_setup(
    inp: runner.Inputs,
    settings: Settings,
    with_hook: OriginTriage | None,
    classifier: Classifier | None = None,
) -> OriginSetup | None:
    """How failed jobs get their origin (issue 14); None when `origin-budget` is 0 (off).
    `with_hook`: the pipeline taking the origin hook (None: decided after a triage passed in)."""
    from repopilot import pipeline
    from repopilot.origin.signature import signature_text

    budget = settings.action.origin_budget
    if budget == 0:
        return None
    if classifier is None:  # a triage passed in (tests): the origin lookups load their own
        classifier = pipeline.load_classifier(inp.patterns, engine=settings.engine)

    def classify(path: str) -> list[Verdict]:
        return [cj.verdict for cj in pipeline.classified_jobs(path, classifier)]

    return OriginSetup(
        classify, signature_text, budget, with_hook, log_cap=settings.github.max_log_bytes
    )


def main(env: Mapping[str, str] | None = None, triage: Triage | None = None) -> int:
    """Run once for the event in the environment; the exit status for the runner.

    The environment is read here, once, into `Settings` (repopilot/settings.py); everything
    below gets what it needs from that record."""
    env = os.environ if env is None else env
    try:
        settings = Settings.from_env(env)
    except ConfigError as exc:
        return config_failure(env, str(exc))
    return run(settings, triage)


def config_failure(env: Mapping[str, str], message: str) -> int:
    """The settings could not be read from `env`: the error line, summary and trace anyway."""
    reporting = _reporting(env)
    return _failed(reporting, _trace(reporting), message)


def _reporting(env: Mapping[str, str]) -> Settings:
    """When the settings cannot be read: the few plain strings that say where the error line and
    the trace go (the summary file, the run, the trace directory), read without validation."""
    github = GitHubSettings(
        event_name=env.get("GITHUB_EVENT_NAME", ""),
        step_summary=env.get("GITHUB_STEP_SUMMARY") or None,
        run_id=env.get("GITHUB_RUN_ID", ""),
        run_attempt=env.get("GITHUB_RUN_ATTEMPT", ""),
    )
    return Settings(github=github, trace_dir=env.get("REPOPILOT_TRACE_DIR", "").strip() or ".runs")


def run(settings: Settings, triage: Triage | None = None) -> int:
    """`main` once the environment is read: the handler for the event, its outputs, summary
    and trace."""
    trace = _trace(settings)
    try:
        inp = runner.read_inputs(settings)
        data = read_event(inp.event_path)
        if inp.mode == "report":  # issue 28: on whatever event runs it (a schedule)
            result = report_outcome(settings)
        elif inp.event_name == "workflow_run":
            result = on_workflow_run(inp, settings, parse_run_event(data), triage)
        elif inp.event_name == "issue_comment":
            result = on_issue_comment(inp, parse_comment_event(data))
        elif inp.event_name in CI_EVENTS:
            result = on_ci_run(inp, settings, data, triage)
        else:
            result = Outcome(
                "ignored", f"RepoPilot has nothing to do on `{inp.event_name}` events."
            )
    except (ConfigError, EventError, PatternError, ResultFileError) as exc:
        return _failed(settings, trace, str(exc))
    except Exception as exc:
        message = describe_api_error(exc)
        if message is None:
            raise
        return _failed(settings, trace, message)
    trace.add(
        "decision", tool_name=inp.event_name, result={"outcome": result.outcome, **result.details}
    )
    trace.finish(result.outcome)
    runner.write_outputs(settings.github.output, result.outputs)
    runner.write_summary(settings.github.step_summary, result.summary)
    return 0


def _failed(settings: Settings, trace: TraceWriter, message: str) -> int:
    trace.add("error", error=message)
    trace.finish("error")
    return runner.fail(settings.github.step_summary, message)


def _trace(settings: Settings) -> TraceWriter:
    """The Action's own trace, `action-<run id>-<attempt>` when the runner says which run."""
    gh = settings.github
    return TraceWriter(
        goal=f"action {gh.event_name}",
        run_id=f"action-{gh.run_id}-{gh.run_attempt or '1'}" if gh.run_id else None,
        directory=settings.trace_dir,
    )


def on_workflow_run(
    inp: runner.Inputs, settings: Settings, event: RunEvent, triage: Triage | None
) -> Outcome:
    run = event.workflow_run
    if run.conclusion == "success" and inp.mode != "analyze":
        gh, bot = client_for(inp)
        own = is_own_run(event, settings.github.workflow_ref, bot)
        if own and not tests_a_fix(event, settings.github.workflow_ref):  # issue 23: fix held?
            return Outcome("ignored", f"RepoPilot: run {run.id} is RepoPilot's own.")
        return resolve_comment(
            inp, gh.get_repo(event.repository.full_name or inp.repository), event, bot
        )
    if run.conclusion not in FAILED_CONCLUSIONS:
        return Outcome(
            "ignored", f"RepoPilot: run {run.id} concluded `{run.conclusion}`; nothing to do."
        )
    gh, bot = client_for(inp)
    if is_own_run(event, settings.github.workflow_ref, bot):
        repo = gh.get_repo(event.repository.full_name or inp.repository)
        if tests_a_fix(event, settings.github.workflow_ref):  # issue 23: say it did not hold
            url = report_failed_fix(repo, event, bot, inp.dry_run)
            if url:
                return Outcome(
                    "commented", f"RepoPilot: run {run.id} failed on an applied fix: {url}"
                )
        return Outcome("ignored", f"RepoPilot: run {run.id} is RepoPilot's own; not triaged.")
    return triage_and_post(inp, settings, event, triage, gh, bot)


def on_ci_run(
    inp: runner.Inputs, settings: Settings, data: dict[str, Any], triage: Triage | None
) -> Outcome:
    """The same-workflow mode: triage the run this job belongs to; no failed job (a job with
    `if: always()`) means the run is passing, and an existing comment is marked resolved."""
    event = ci_run_event(inp.event_name, data, settings.github)
    gh, bot = client_for(inp)
    if is_own_run(event, None, bot):
        repo = gh.get_repo(event.repository.full_name or inp.repository)
        url = report_failed_fix(repo, event, bot, inp.dry_run)  # issue 23: a fix that failed
        if url:
            return Outcome("commented", f"RepoPilot: an applied fix failed its CI: {url}")
        return Outcome("ignored", f"RepoPilot: run {event.workflow_run.id} is RepoPilot's own.")
    return triage_and_post(inp, settings, event, triage, gh, bot, same_run=True)


def _analyze(
    inp: runner.Inputs,
    settings: Settings,
    repo: Any,
    event: RunEvent,
    triage: Triage | None,
    memory: Memory | None = None,
) -> RunResult:
    skipped = None
    caps = LogCaps(settings.github.max_log_bytes, settings.github.max_zip_bytes)
    if triage is None:
        classifier = action_classifier(inp, settings, repository_library(repo, inp.patterns))
        own, skipped = pipeline_triage(inp, settings, classifier)
        setup = with_memory(origin_setup(inp, settings, own, classifier), memory)
        found = analyze(repo, event, own, setup, caps)
    else:
        setup = with_memory(origin_setup(inp, settings, None), memory)
        found = analyze(repo, event, triage, setup, caps)
    if memory is not None:  # issue 28: "seen before" for each failed job
        found = memory.attach(found)
    status = llm_status(inp.llm, skipped, found.results)
    emit_annotations(found.jobs)  # issue 23: the key line's file and line, where it names one
    if status.skipped:
        runner.warning(
            f"RepoPilot: the LLM was skipped: {status.skipped}. "
            "The pattern verdicts are posted without it."
        )
    return found.model_copy(update={"llm": status})


def triage_and_post(
    inp: runner.Inputs,
    settings: Settings,
    event: RunEvent,
    triage: Triage | None,
    gh: Github,
    bot: str,
    same_run: bool = False,
) -> Outcome:
    run = event.workflow_run
    full_name = event.repository.full_name or inp.repository
    repo = gh.get_repo(full_name)
    memory = Memory(repo, event) if settings.action.memory else None  # issue 28
    if inp.mode == "post":
        found = load_result(inp.result_file, full_name, run.id)
    else:
        found = _analyze(inp, settings, repo, event, triage, memory)
    outputs, details = _outputs(found), {"run_id": run.id, "jobs": [j.id for j in found.jobs]}
    details["job_traces"] = [j.result.trace for j in found.jobs]
    details["origins"] = [
        j.result.origin.model_dump() if j.result.origin else None for j in found.jobs
    ]
    details["llm"] = found.llm.model_dump()
    if not found.jobs:
        if same_run and inp.mode != "analyze":
            return resolve_comment(inp, repo, event, bot)
        return Outcome("ignored", f"RepoPilot: run {run.id} has no failed jobs.", outputs, details)
    if inp.mode == "analyze":
        save_result(inp.result_file, found)
        print(run_summary(found, f"posted by the post job (result in {inp.result_file})"))
        return Outcome("analyzed", _job_table(found), outputs, details)
    render = comment_renderer(found, inp.server_url, inp.signing_key)
    render = offer_learning(render, repo, found, inp.signing_key, inp.patterns)
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
    if memory is not None and not inp.dry_run:  # after posting: a memory failure costs nothing
        details["memory"] = memory.remember(found, posted.pr.number if posted.pr else None).added
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
    done = "created" if posted.created else "updated"
    summary = f"RepoPilot {done} its comment on #{posted.pr.number}: {posted.comment.html_url}"
    return Outcome("commented", f"{summary}\n\n{_job_table(found)}", outputs, details)


def _outputs(found: RunResult) -> dict[str, str]:
    """Outputs describe the first failed job in the run's job order."""
    first = found.jobs[0].result if found.jobs else None
    return {
        "category": first.verdict.category if first else "",
        "decided-by": first.verdict.decided_by if first else "",
        "comment-url": "",
        "proposal-id": first.proposal.id if first and first.proposal else "",
        "origin": _told(first),
    }


def _told(result: TriageResult | None) -> str:
    """The origin as the comment and its marker tell it: on a guessed category, `this_pr` and
    `infra` are undetermined (comment/origin.py `told`), so the output blames no one either."""
    if result is None:
        return ""
    origin = told(result.origin, is_guess(result.verdict))
    return origin.origin if origin is not None else ""


def _job_table(found: RunResult) -> str:
    rows = ["| Job | Category | Decided by | Origin | Title |", "|---|---|---|---|---|"]
    for job in found.jobs:
        v = job.result.verdict
        origin = origin_cell(told(job.result.origin, is_guess(v)))  # as the comment tells it
        # job names and titles are attacker text (a fork's workflow names its jobs): cleaned,
        # redacted and made inert like log lines (docs/THREAT_MODEL.md §19)
        title = md.cell(clean_for_model(v.title).text, 200)
        name = md.cell(clean_for_model(job.name).text, 120)
        rows.append(f"| {name} | `{v.category}` | {v.decided_by} | {origin} | {title} |")
    return "\n".join(rows)
