"""triage(): who goes to the LLM, and what the result says after it answered (or did not).

The pattern library is a small fixture (tests/fixtures/context/patterns), so these tests do not
move when the bundled library grows; the model is the scripted provider, a real implementation of the LLM seam.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.llm.base import ChatResponse, LLMError, ToolCall
from repopilot.llm.scripted import ScriptedLLM
from repopilot.pipeline import (
    MAX_WINDOW_SOURCE,
    Escalation,
    classified_jobs,
    evidence_window,
    load_classifier,
    should_escalate,
    triage,
    window_lines,
)
from repopilot.records import Verdict
from tests.paths import FIXTURES, REPO_ROOT

PATTERNS = FIXTURES / "context" / "patterns"


def job_log(path: Path, *body: str) -> str:
    lines = ["##[group]Run ./ci.sh", "./ci.sh", "##[endgroup]", *body]
    lines += ["##[error]Process completed with exit code 1.", "Cleaning up orphan processes"]
    stamped = [f"2025-05-06T07:08:{i % 60:02d}.0000000Z {t}" for i, t in enumerate(lines)]
    path.write_text("\n".join(stamped) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def env(tmp_path: Path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("def total(items):\n    return sum(items[1:])\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return {"patterns": PATTERNS, "repo": repo, "traces": tmp_path / "runs", "tmp": tmp_path}


def run(env, log: str, llm, escalate="auto"):
    return triage(
        log,
        env["repo"],
        Escalation(llm, mode=escalate),
        classifier=load_classifier(env["patterns"]),
        trace_dir=env["traces"],
    )


def answer(diagnosis: str, category: str = "config_error") -> ChatResponse:
    text = json.dumps({"diagnosis": diagnosis, "category": category, "confidence": 0.7})
    return ChatResponse(text=text)


def read_trace(path: str | None) -> dict:
    assert path is not None
    return json.loads(Path(path).read_text())


def unknown_log(env) -> str:
    return job_log(
        env["tmp"] / "unknown.log",
        "starting frobnicator",
        "frobnicator: widget misaligned at stage 3 (see app.py:2)",
    )


@pytest.mark.integration
def test_pattern_decided_failure_makes_zero_llm_calls(env):
    log = job_log(env["tmp"] / "decided.log", "running", "TEST FAILED: t_one")
    llm = ScriptedLLM([answer("should never be asked")])
    (result,) = run(env, log, llm)
    assert llm.calls == []
    assert result.escalated is False and result.diagnosis is None
    assert result.verdict.decided_by == "pattern"
    assert result.verdict.pattern_id == "demo.test.failed"
    trace = read_trace(result.trace)
    assert [s["type"] for s in trace["steps"]] == ["classify", "decision"]
    assert trace["steps"][0]["result"]["pattern_id"] == "demo.test.failed"
    assert trace["usage"]["llm_calls"] == 0
    assert Path(result.trace).parent == env["traces"]


@pytest.mark.integration
def test_unknown_failure_is_escalated_and_the_model_decides(env):
    llm = ScriptedLLM([answer("stage 3 reads items[1:], dropping the first widget")])
    (result,) = run(env, unknown_log(env), llm)
    assert len(llm.calls) == 1
    assert result.escalated is True
    assert result.verdict.decided_by == "llm"
    assert result.verdict.category == "config_error"
    assert result.diagnosis == "stage 3 reads items[1:], dropping the first widget"
    # The first message carries the verdict and the numbered, fenced evidence window.
    goal = llm.calls[0].messages[1].content
    assert "5| frobnicator: widget misaligned at stage 3" in goal
    assert "unknown" in goal
    trace = read_trace(result.trace)
    types = [s["type"] for s in trace["steps"]]
    assert types[0] == "classify" and "llm_call" in types
    window = next(
        s["result"] for s in trace["steps"] if (s["result"] or {}).get("event") == "evidence-window"
    )
    assert any(a <= 5 <= b for a, b in window["line_ranges"])
    assert result.contract()["trace"] == result.trace


@pytest.mark.integration
def test_ambiguous_pattern_is_escalated_by_default(env):
    log = job_log(env["tmp"] / "amb.log", "MAYBE FLAKY: t_two")
    llm = ScriptedLLM([answer("a timing-dependent assertion", "test_failure")])
    (result,) = run(env, log, llm)
    assert len(llm.calls) == 1 and result.escalated
    assert result.verdict.category == "test_failure" and result.verdict.decided_by == "llm"


@pytest.mark.integration
def test_fixable_also_escalates_code_failures_but_auto_does_not(env):
    log = job_log(env["tmp"] / "code.log", "TEST FAILED: t_one")
    auto = ScriptedLLM([answer("x")])
    assert run(env, log, auto)[0].escalated is False and auto.calls == []
    fixable = ScriptedLLM([answer("t_one asserts the old total", "test_failure")])
    (result,) = run(env, log, fixable, escalate="fixable")
    assert len(fixable.calls) == 1 and result.escalated


@pytest.mark.integration
def test_infra_failures_never_escalate(env):
    log = job_log(env["tmp"] / "net.log", "fetch: connection refused by example.org")
    llm = ScriptedLLM([answer("x")])
    (result,) = run(env, log, llm, escalate="fixable")
    assert llm.calls == [] and result.escalated is False
    assert result.verdict.category == "network"
    assert read_trace(result.trace)["outcome"] == "infra-not-escalated"


@pytest.mark.integration
def test_llm_failure_keeps_the_deterministic_verdict(env):
    llm = ScriptedLLM([LLMError("http-500", "upstream down")])
    (result,) = run(env, unknown_log(env), llm)
    assert result.escalated is True  # the LLM was asked, even though it failed
    assert result.diagnosis is None
    assert result.verdict.decided_by == "none" and result.verdict.category == "unknown"
    trace = read_trace(result.trace)
    assert any("llm-unavailable" in (s["error"] or "") for s in trace["steps"])


@pytest.mark.integration
def test_category_outside_the_taxonomy_is_not_taken(env):
    llm = ScriptedLLM([answer("the widget is cursed", "cursed_widget")])
    (result,) = run(env, unknown_log(env), llm)
    assert result.verdict.decided_by == "llm" and result.diagnosis == "the widget is cursed"
    assert result.verdict.category == "unknown"


@pytest.mark.integration
def test_without_an_llm_nothing_is_escalated(env):
    (result,) = run(env, unknown_log(env), None)
    assert result.escalated is False and result.verdict.category == "unknown"
    assert read_trace(result.trace)["outcome"] == "no-llm-configured"


@pytest.mark.integration
def test_agent_tools_read_the_checkout_and_the_log(env):
    """A tool round trip through the real Toolbox: read_file on the repo, get_log on the job."""
    llm = ScriptedLLM(
        [
            ChatResponse(
                tool_calls=(ToolCall(id="c1", name="read_file", arguments={"path": "app.py"}),)
            ),
            ChatResponse(
                tool_calls=(
                    ToolCall(id="c2", name="get_log", arguments={"start_line": 4, "end_line": 6}),
                )
            ),
            answer("app.py:2 drops the first item", "test_failure"),
        ]
    )
    (result,) = run(env, unknown_log(env), llm)
    assert result.verdict.category == "test_failure"
    observations = [m.content for m in llm.calls[2].messages if m.role == "tool"]
    assert "return sum(items[1:])" in observations[0]
    assert "frobnicator: widget misaligned" in observations[1]


@pytest.mark.integration
def test_unknown_escalate_mode_is_refused(env):
    with pytest.raises(ValueError, match="escalate"):
        run(env, unknown_log(env), None, escalate="always")


@pytest.mark.unit
@pytest.mark.parametrize(
    ("verdict", "mode", "expected"),
    [
        (dict(category="unknown"), "auto", True),
        (dict(category="unknown", kind="infra"), "auto", False),
        (dict(category="no_failure"), "fixable", False),
        (dict(category="test_failure", kind="code"), "auto", False),
        (dict(category="test_failure", kind="code"), "fixable", True),
        (dict(category="test_failure", kind="flaky"), "fixable", False),
        (dict(category="compile_error", kind="code", ambiguous=True), "auto", True),
        (dict(category="runner_infra", ambiguous=True), "fixable", False),
        (dict(category="timeout_cancelled", kind="code"), "fixable", False),
        (dict(category="oom_disk"), "fixable", False),
        (dict(category="permission_secret"), "fixable", False),
    ],
)
def test_should_escalate(verdict, mode, expected):
    assert should_escalate(Verdict(source="x", **verdict), mode) is expected


def committed_repo(env) -> Path:
    repo = env["repo"]
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "init"], check=True)
    return repo


def propose(diff: str, call_id: str) -> ChatResponse:
    args = {"diagnosis": "app.py drops the first item", "category": "test_failure",
            "diff": diff, "confidence": 0.8}  # fmt: skip
    return ChatResponse(tool_calls=(ToolCall(id=call_id, name="propose_fix", arguments=args),))


FIX = """\
--- a/app.py
+++ b/app.py
@@ -1,2 +1,2 @@
 def total(items):
-    return sum(items[1:])
+    return sum(items)
"""

WORKFLOW = """\
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -1 +1 @@
-on: push
+on: pull_request_target
"""


@pytest.mark.integration
def test_a_valid_fix_becomes_a_proposal_checked_against_the_checkout(env):
    committed_repo(env)
    llm = ScriptedLLM([propose(FIX, "p1")])
    (result,) = run(env, unknown_log(env), llm)
    assert result.proposal is not None and result.rejected == ()
    assert result.proposal.diff == FIX
    assert result.proposal.sha256 == hashlib.sha256(FIX.encode("utf-8")).hexdigest()
    assert re.fullmatch(r"[a-z0-9-]{6,40}", result.proposal.id)
    assert result.proposal.files == ("app.py",)
    wire = result.contract()["proposal"]
    assert list(wire) == ["id", "diff", "sha256", "files"] and wire["files"] == ["app.py"]
    # nothing is applied: the checkout is unchanged
    assert "items[1:]" in (env["repo"] / "app.py").read_text()


@pytest.mark.integration
def test_a_diff_to_workflows_is_rejected_and_never_offered(env):
    committed_repo(env)
    (env["repo"] / ".github" / "workflows").mkdir(parents=True)
    llm = ScriptedLLM([propose(WORKFLOW, "p1"), propose(WORKFLOW, "p2")])
    (result,) = run(env, unknown_log(env), llm)
    assert result.proposal is None
    assert [r.reason for r in result.rejected] == ["protected-path", "protected-path"]
    assert result.contract()["rejected"][0]["reason"] == "protected-path"
    assert len(llm.calls) == 2  # the first rejection went back to the model once


@pytest.mark.integration
def test_the_pipeline_imports_no_sdk():
    code = (
        "import sys, repopilot.pipeline, repopilot.commands.context;"
        "print(sorted(m for m in ('openai', 'ollama', 'github') if m in sys.modules))"
    )
    root = REPO_ROOT
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.integration
def test_window_source_is_bounded_on_a_long_log(env):
    """A 60,000-line job: the window is read from at most MAX_WINDOW_SOURCE lines, still
    finds the failure at the end, and line numbers stay those of the file."""
    path = env["tmp"] / "long.log"
    with open(path, "w") as fh:
        fh.writelines(f"step {i}: compiled unit {i}\n" for i in range(1, 60_001))
        fh.write("frobnicator: widget misaligned at stage 3\n")
        fh.write("##[error]Process completed with exit code 1.\n")
    (cj,) = classified_jobs(str(path), load_classifier(env["patterns"]))
    lines = window_lines(cj)
    assert len(lines) <= MAX_WINDOW_SOURCE
    assert lines[-1] == (60_002, "##[error]Process completed with exit code 1.")
    window = evidence_window(cj)
    assert any(a <= 60_001 <= b for a, b in window.line_ranges)
    assert "60001| frobnicator: widget misaligned at stage 3" in window.text


@pytest.mark.integration
def test_the_models_diagnosis_is_redacted_before_it_is_returned(env):
    token = "ghp_" + "Vb4nM8qR2tY6uI0oP3aS7dF1gH5jK9lZ2xC4"
    llm = ScriptedLLM([answer(f"push failed; the job used {token}", "permission_secret")])
    (result,) = run(env, unknown_log(env), llm)
    assert result.diagnosis is not None and "push failed" in result.diagnosis
    assert token not in result.diagnosis and "[REDACTED:github-token]" in result.diagnosis
