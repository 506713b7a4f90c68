"""Issue 23: a key line that names a repository file and line becomes an `::error file=...` annotation
(shown in the PR's "Files changed"), escaped so that log text cannot end a property or start a
second workflow command, and never for a path outside the repository."""

from __future__ import annotations

import pytest

from repopilot.action.annotations import (
    Annotation,
    annotation_for,
    annotation_lines,
    repo_path,
    workflow_command,
)
from repopilot.action.result_file import JobResult
from repopilot.records import Evidence, Verdict
from repopilot.run_records import TriageResult
from tests.adoption_logs import gha, pytest_log
from tests.loopback.github_action import BOT, STEPS, run_action, run_event
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_server import GitHubServer, State

GCC = gha(
    [
        (
            "make",
            [
                "gcc -c src/calc.c -o calc.o",
                "src/calc.c:12:5: error: 'x' undeclared (first use in this function)",
                "make: *** [Makefile:3: calc.o] Error 1",
            ],
        )
    ]
)


def job(*lines: str, captures: dict[str, str] | None = None, context=(), name="build") -> JobResult:
    ev = tuple(Evidence(line=10 + i, text=t) for i, t in enumerate(lines))
    v = Verdict(
        source="x",
        category="compile_error",
        decided_by="pattern",
        evidence=ev,
        captures=captures or {},
        context=tuple(context),
    )
    return JobResult(id=1, name=name, conclusion="failure", result=TriageResult(verdict=v))


@pytest.mark.unit
@pytest.mark.parametrize(
    "raw, want",
    [
        ("src/a.py", "src/a.py"),
        ("./src/a.py", "src/a.py"),
        ("/home/runner/work/app/app/src/a.go", "src/a.go"),
        ("/__w/app/app/lib/x.rs", "lib/x.rs"),
        ("/usr/include/stdio.h", None),
        ("../secret/x.py", None),
        ("src/../../x.py", None),
        ("C:\\a\\x.cs", None),
        ("node_modules/lib/index.js", None),
        ("/opt/venv/lib/python3.12/site-packages/lib/image.py", None),
        ("src/a\n.py", None),
    ],
)
def test_only_paths_inside_the_repository(raw: str, want: str | None) -> None:
    assert repo_path(raw) == want


@pytest.mark.unit
def test_captures_first_then_the_evidence_text() -> None:
    a = annotation_for(job("boom", captures={"file": "src/m.c", "line": "7", "col": "2"}))
    assert (a.file, a.line, a.col) == ("src/m.c", 7, 2)
    a = annotation_for(job("src/index.ts(4,7): error TS2322: Type 'string'"))
    assert (a.file, a.line, a.col) == ("src/index.ts", 4, 7)
    a = annotation_for(job("see https://example.com:8080/x.py:3 then lib/ok.py:9: bad"))
    assert (a.file, a.line) == ("lib/ok.py", 9), "a URL's port is no line"
    assert annotation_for(job("Error: something broke")) is None
    assert annotation_for(job("/usr/include/stdio.h:3: error")) is None


@pytest.mark.unit
def test_log_text_cannot_break_out_of_the_command() -> None:
    hostile = "x.py:1: pwned%0A::add-mask::x\r\n::error::second"
    a = annotation_for(job(hostile, name="t,itle=:x::error::y"))
    line = workflow_command(a)
    assert line.count("\n") == 0 and line.count("\r") == 0
    head, _, message = line.partition("::")[2].partition("::")
    assert head.startswith("error file=x.py,line=1,title=")
    assert "," not in head.split("title=", 1)[1] and ":" not in head.split("title=", 1)[1]
    assert "%250A" in message  # the log's own "%0A" stays text: the runner reads one command
    assert workflow_command(Annotation("a.py", 1, "t", "one\r\ntwo")).endswith("::one%0D%0Atwo")
    token = "ghp_" + "A1b2C3d4" * 5
    leaked = workflow_command(annotation_for(job(f"src/a.py:3: bad token {token}")))
    assert token not in leaked


@pytest.mark.unit
def test_a_matrix_that_failed_the_same_way_is_annotated_once() -> None:
    same = [job("src/m.c:3:1: error: boom", name=f"build ({i})") for i in range(4)]
    assert len(annotation_lines(same)) == 1


@pytest.mark.unit
def test_workflow_command_shape() -> None:
    a = Annotation("src/a b.py", 3, "RepoPilot: test failure in t", "assert 1 == 2", 5)
    assert workflow_command(a) == (
        "::error file=src/a b.py,line=3,col=5,title=RepoPilot%3A test failure in t::assert 1 == 2"
    )


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed_state(state)
    assert state.errors == []


@pytest.mark.integration
def test_the_action_annotates_the_key_lines_file(tmp_path, gh) -> None:
    server, facts = gh
    state = server.state
    state.job_logs[101] = GCC
    state.job_logs[102] = pytest_log()
    state.runs[555]["jobs"].append(
        {"id": 102, "name": "test (3.12) b", "conclusion": "failure", "steps": STEPS}
    )
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), patterns="")
    assert run.returncode == 0, run.stderr
    lines = [ln for ln in run.stdout.splitlines() if ln.startswith("::error file=")]
    assert any(ln.startswith("::error file=src/calc.c,line=12,col=5,title=") for ln in lines)
    assert any(ln.startswith("::error file=tests/test_core.py,line=430,") for ln in lines)
