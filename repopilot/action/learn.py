"""Learning in the Action (issue 21, docs/CONTRACTS.md Contract 6).

- `repository_library`: the built-in library with the repository's problem matchers
  (`.github/*.json`, `.github/problem-matchers/`, `.github/matchers/`: single-line ones) and its
  own `.github/repopilot/patterns/` (all of its DEFAULT branch) on top; a bad or unsafe file is
  left out with a `::warning::`, never a failed run.
- `with_offers`: where the LLM diagnosed an unknown failure, or the verdict is the engine's
  low-confidence guess, the comment shows the pattern RepoPilot would learn from the key line
  (collapsed) and the command `/repopilot learn <id>`; a hidden marker records each offer's
  hash (and an HMAC with the signing key), the run and its failed jobs.
- `on_learn`: `/repopilot learn <id>` or `/repopilot learn <job id> L<line> [category]` from an
  approver opens ONE pull request against the default branch adding the pattern file, and the
  reply links it.
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

from repopilot.action import runner
from repopilot.action.flows import Render
from repopilot.action.result_file import RunResult
from repopilot.commands.learn import lint_one
from repopilot.comment.markdown import code_span, fence
from repopilot.engine.learn.check import safe_route, summary_hits
from repopilot.engine.learn.learner import LearnRequest, learn, to_yaml
from repopilot.engine.learn.matcher import import_matchers
from repopilot.engine.library.layers import layered, tolerant_layer
from repopilot.engine.library.loader import Pattern, load_library
from repopilot.errors import InputError
from repopilot.github.client import GithubException, Repository
from repopilot.github.learn_api import fetch_matchers, fetch_patterns
from repopilot.github.prs import PullRef
from repopilot.github.runs import FailedJob, cleanup, fetch_job_log, fresh_workdir
from repopilot.records import CATEGORIES
from repopilot.safety.redact import clean_for_model

LEARN_MARK = re.compile(r"<!-- repopilot-learn:(\{.*?\}) -->")
MAX_OFFERS = 3  # jobs of one run whose log is read again to offer a pattern
MAX_LEARN_LOG = 32 * 1024 * 1024  # bytes: a larger log is learned from with the CLI, not in a run


def safe_for_engine(p: Pattern) -> str | None:
    return safe_route(p) or next(iter(lint_one(p)), None)


def repository_library(repo: Repository, patterns_dir: str | None) -> list[Pattern]:
    """The library the Action classifies with: `patterns_dir` (the `patterns` input, default
    the built-in library) with the repository's problem matchers, then its own patterns, on top."""
    base = layered(load_library(patterns_dir), repository_matchers(repo))
    with tempfile.TemporaryDirectory(prefix="repopilot-repo-patterns-") as tmp:
        try:
            fetched = fetch_patterns(repo, Path(tmp))
        except GithubException as exc:
            runner.warning(f"RepoPilot: the repository's patterns were not read: {exc.status}")
            return base
        layer = tolerant_layer(fetched.files, safe_for_engine)
    for why in (*fetched.warnings, *layer.warnings):
        runner.warning(
            f"RepoPilot: {why.replace(tmp, fetched.branch + ':.github/repopilot/patterns')}"
        )
    return layered(base, layer.patterns)


def repository_matchers(repo: Repository) -> list[Pattern]:
    """The single-line problem matchers of the default branch's `.github/` as patterns (category
    `other`); a JSON file without a `problemMatcher` list is not one, a matcher file that does
    not parse or yields no pattern (multi-line matchers only, say) is one `::warning::`."""
    try:
        fetched = fetch_matchers(repo)
    except GithubException as exc:
        runner.warning(f"RepoPilot: the repository's problem matchers were not read: {exc.status}")
        return []
    for why in fetched.warnings:
        runner.warning(f"RepoPilot: {fetched.branch}:{why}")
    out: list[Pattern] = []
    seen: set[str] = set()
    for f in fetched.files:
        where = f"{fetched.branch}:{f.path}"
        try:
            doc = json.loads(f.content.decode("utf-8"))
        except (ValueError, RecursionError) as exc:  # (UnicodeDecodeError is a ValueError)
            why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
            runner.warning(f"RepoPilot: problem matcher skipped: {where}: not JSON: {why}")
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("problemMatcher"), list):
            continue  # another JSON file (.github/ holds configuration too)
        try:
            got = import_matchers(doc, f"{repo.full_name}:{f.path}", "other", where)
        except Exception as exc:  # noqa: BLE001  (someone's file: never a failed run)
            runner.warning(f"RepoPilot: problem matcher skipped: {where}: {exc}")
            continue
        fresh = [p for p in got.patterns if p.id not in seen and safe_for_engine(p) is None]
        if not fresh:
            runner.warning(f"RepoPilot: problem matcher skipped: {where}: no pattern made from it")
        seen.update(p.id for p in fresh)
        out.extend(fresh)
    return out


@dataclass(frozen=True, slots=True)
class Offer:
    id: str
    job_id: int
    job_name: str
    line: int
    category: str
    yaml: str
    # learned patterns this one contradicts (they decide that log on another line): the pull
    # request takes them out (action/learn_command.py)
    retired: tuple[str, ...] = ()

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.yaml.encode("utf-8")).hexdigest()


def _wanted(result: Any) -> bool:
    v = result.verdict
    # A line a pattern already decides needs no new one (the LLM may have been asked for a fix).
    known = v.pattern_id is not None
    return (
        bool(v.evidence)
        and v.category != "no_failure"
        and v.decided_by in ("llm", "none")
        and not known
    )


def offers(repo: Repository, found: RunResult, library: list[Pattern]) -> list[Offer]:
    """A learnable pattern for each job the LLM diagnosed or the engine only guessed (the first
    MAX_OFFERS such jobs); a job whose key line yields no safe pattern, one that takes a tool's
    summary line, or whose log is larger than MAX_LEARN_LOG, gets none (its log is read again,
    through the API)."""
    out: list[Offer] = []
    # a fork's workflow chooses how many jobs fail and how large their logs are, and each try
    # reads a log again and runs the learner over all of it before the comment is posted
    wanted = [job for job in found.jobs if _wanted(job.result)][:MAX_OFFERS]
    workdir = fresh_workdir()
    try:
        for job in wanted:
            v = job.result.verdict
            line = v.evidence[0].line
            category = v.category if v.category in CATEGORIES else "other"
            try:
                failed = FailedJob(job.id, job.name, "failure", None)
                log = fetch_job_log(repo, failed, workdir, MAX_LEARN_LOG)
                if log.truncated:
                    continue  # larger than a run learns from (the CLI can)
                req = LearnRequest(str(log.path), line, category,  # type: ignore[arg-type]
                                   source_name=f"job {job.id} of run {found.run_id}")  # fmt: skip
                got = learn(req, library, lint_one)
            except (InputError, GithubException, OSError):
                continue
            if summary_hits(got.pattern):
                continue  # it would take every failure of that tool (engine/learn/generic.py)
            out.append(Offer(f"learn-{job.id}-{line}", job.id, job.name, line, category,
                             to_yaml(got), got.retired))  # fmt: skip
    finally:
        cleanup(workdir)
    return out


def _marker(found: RunResult, pr: int | None, made: list[Offer], key: str | None) -> str:
    data: dict[str, Any] = {
        "repo": found.repository,
        "pr": pr,
        "run": found.run_id,
        "jobs": [j.id for j in found.jobs],
        "offers": [
            {
                "id": o.id,
                "job": o.job_id,
                "line": o.line,
                "category": o.category,
                "sha256": o.sha256,
                **({"retired": list(o.retired)} if o.retired else {}),
            }
            for o in made
        ],  # fmt: skip
    }
    if key:
        data["hmac"] = sign(data, key)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "<!-- repopilot-learn:" + text.replace("<", "\\u003c").replace(">", "\\u003e") + " -->"


def sign(data: dict[str, Any], key: str) -> str:
    plain = {k: v for k, v in data.items() if k != "hmac"}
    blob = json.dumps(plain, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(key.encode(), blob, hashlib.sha256).hexdigest()


def section(found: RunResult, pr: int | None, made: list[Offer], key: str | None) -> str:
    """The comment's learning part: each offer collapsed with its command, and the marker."""
    parts = []
    for o in made:
        name = clean_for_model(o.job_name).text
        parts.append(
            f"<details><summary>Teach RepoPilot this failure of {code_span(name, 120)} "
            f"(line {o.line}, <code>{o.category}</code>)</summary>\n\n"
            f"<!-- repopilot-learn-yaml:{o.id} -->\n{fence(o.yaml, 'yaml')}\n"
            "RepoPilot would open one pull request adding this file under "
            "`.github/repopilot/patterns/`; once merged, the same failure is decided without "
            f"the LLM.\n\n</details>\n\nTo learn it, comment `/repopilot learn {o.id}`"
        )
    if found.jobs:
        parts.append(
            "Wrong line? Comment `/repopilot learn <job id> L<line> [category]` "
            f"(job ids: {', '.join(str(j.id) for j in found.jobs)})."
        )
    return "\n\n".join(parts) + "\n\n" + _marker(found, pr, made, key)


def with_offers(render: Render, found: RunResult, made: list[Offer], key: str | None) -> Render:
    """`render` with the learning section after it (nothing added without an offer)."""
    if not made:
        return render

    def body(pr: PullRef | None, previous: str | None) -> str:
        return render(pr, previous) + "\n\n" + section(found, pr.number if pr else None, made, key)

    return body


def offer_learning(
    render: Render, repo: Repository, found: RunResult, key: str | None, patterns: str | None
) -> Render:
    """The Action's hook: the comment with the patterns RepoPilot would learn; learning that
    fails for any reason costs only the offer, never the comment."""
    if not any(_wanted(j.result) for j in found.jobs):
        return render
    try:
        made = offers(repo, found, repository_library(repo, patterns))
    except Exception as exc:  # noqa: BLE001
        runner.warning(f"RepoPilot: no pattern offered to learn: {type(exc).__name__}: {exc}")
        return render
    return with_offers(render, found, made, key)
