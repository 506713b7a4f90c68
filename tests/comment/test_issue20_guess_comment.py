"""A guess is shown as one (issue 20, "Low-confidence verdicts are shown as such in the comment,
never 'caused by this pull request' on a guess"): the fallback's verdicts and a category read
from the failing step's command carry a low confidence, and the comment says it is a guess and
blames no one on it. The verdicts come from the real engine over logs written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.comment.origin import is_guess
from repopilot.comment.render import CommentContext, looks_like_pr_fault, render
from repopilot.comment.sections import JobReport
from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.records import Verdict
from repopilot.run_records import OriginVerdict, TriageResult

pytestmark = pytest.mark.unit

HEAD = "0123456789abcdef0123456789abcdef01234567"
JOB_URL = "https://github.com/octo/app/actions/runs/42/job/7"
TS = "2025-06-01T10:00:00.0000000Z "
BLAME = ("caused by the changes in this pull request", "not caused by this PR")


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def classify(engine: Classifier, tmp_path: Path, command: str, *body: str) -> Verdict:
    lines = [f"##[group]Run {command}", command, "##[endgroup]", *body]
    lines += ["##[error]Process completed with exit code 1.", "Cleaning up orphan processes"]
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    (v,) = engine.classify_path(path)
    return v


def comment(v: Verdict, origin: OriginVerdict | None) -> str:
    report = JobReport(
        name="e2e", html_url=JOB_URL, result=TriageResult(verdict=v, origin=origin), step_number=3
    )
    return render([report], CommentContext(repo="octo/app", run_id=42, head_sha=HEAD, pr_number=9))


def passes_on_main() -> OriginVerdict:
    return OriginVerdict(
        origin="this_pr",
        reason="the job passes on main (run #7)",
        signature="x",
        base_branch="main",
        base_run_number=7,
        base_run_url="https://github.com/octo/app/actions/runs/7",
    )


def fallback_guess(engine: Classifier, tmp_path: Path) -> Verdict:
    """No pattern knows the failing line; the step's command (`e2e`) guesses test_failure."""
    return classify(
        engine,
        tmp_path,
        "npm run e2e",
        "scenario 0001: checkout ok",
        "scenario 0002: refund flow",
        "Scenario 0002 (refund flow): expected status 200, got 500",
    )


def wrapper_guess(engine: Classifier, tmp_path: Path) -> Verdict:
    """Only make's wrapper line matches; its category comes from the step's command."""
    return classify(
        engine,
        tmp_path,
        "make dist",
        "tar -czf dist/tool.tar.gz -C build tool",
        "tar: build: Cannot open: No such file or directory",
        "make: *** [Makefile:14: dist] Error 2",
    )


def test_engine_guesses_carry_a_low_confidence(engine, tmp_path):
    fb = fallback_guess(engine, tmp_path)
    assert fb.decided_by == "none" and fb.category == "test_failure"
    assert fb.confidence <= 0.35 and fb.ambiguous and "looks like test failure" in fb.title
    wr = wrapper_guess(engine, tmp_path)
    # issue 27: a category read from the step's command is a guess, never decided
    assert wr.decided_by == "none" and wr.confidence <= 0.35 and wr.pattern_id
    assert "from the failing step's command" in wr.title
    assert is_guess(fb) and is_guess(wr)


def test_a_confident_pattern_verdict_is_no_guess(engine, tmp_path):
    v = classify(
        engine,
        tmp_path,
        "cargo build",
        "error[E0425]: cannot find value `totl` in this scope",
        "  --> src/cart.rs:14:9",
        "error: could not compile `shop` (lib) due to 1 previous error",
    )
    assert v.confidence >= 0.5 and not is_guess(v)
    body = comment(v, passes_on_main())
    assert "caused by the changes in this pull request" in body  # the origin speaks
    assert "Low confidence" not in body


@pytest.mark.parametrize("make", [fallback_guess, wrapper_guess])
def test_a_guess_never_blames_the_pull_request(engine, tmp_path, make):
    v = make(engine, tmp_path)
    body = comment(v, passes_on_main())
    assert all(b not in body for b in BLAME), body
    assert "The failure is in the code" not in body  # the header claims nothing either
    assert "**Low confidence:**" in body and "(a guess)" in body
    assert looks_like_pr_fault([TriageResult(verdict=v)]) is None


def test_a_guessed_infrastructure_category_clears_no_one(engine, tmp_path):
    # the fallback's keyword family reads an HTTP 503 as network; the origin rule then
    # says infra, but on a guess the comment neither clears the PR nor says "just re-run"
    v = classify(
        engine,
        tmp_path,
        "./ci/sync.sh",
        "syncing 3 mirrors",
        "mirror b: sync aborted, upstream answered 503 twice",
    )
    assert v.decided_by == "none" and v.category == "network" and v.confidence <= 0.35
    infra = OriginVerdict(origin="infra", reason="a network failure", signature="x")
    body = comment(v, infra)
    assert all(b not in body for b in BLAME), body
    assert "nothing in the code needs to change" not in body
    assert "advice only" not in body and "**Low confidence:**" in body
