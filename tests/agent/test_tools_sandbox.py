"""The agent's tools on real temporary git repos: sandbox escapes, caps, git, the log, arguments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.schema import ToolError, parse_arguments, tool_specs
from repopilot.agent.tools import Toolbox
from repopilot.llm.scripted import ScriptedLLM
from repopilot.trace import TraceWriter
from tests.agent.test_agent_support import answer, call, git, reply


def run(box: Toolbox, name: str, **arguments) -> str:
    return box.execute(name, parse_arguments(name, arguments))


@pytest.mark.integration
@pytest.mark.parametrize(
    "path, why",
    [
        ("../outside.txt", "'..'"),
        ("src/../../outside.txt", "'..'"),
        ("/etc/passwd", "absolute"),
        ("/proc/self/environ", "absolute"),
        (".git/config", ".git/"),
        ("src/.GIT/config", ".git/"),
        ("bad\x00name", "NUL"),
    ],
)
def test_read_file_refuses_paths_outside_the_checkout(repo: Path, path: str, why: str):
    (repo.parent / "outside.txt").write_text("secret outside\n")
    with pytest.raises(ToolError, match=why):
        run(Toolbox(str(repo)), "read_file", path=path)


@pytest.mark.integration
def test_symlink_to_etc_passwd_is_refused(repo: Path):
    os.symlink("/etc/passwd", repo / "passwd")
    box = Toolbox(str(repo))
    with pytest.raises(ToolError, match="outside the checkout"):
        run(box, "read_file", path="passwd")
    assert "passwd@" in run(box, "list_files")  # listed as a link, never followed


@pytest.mark.integration
def test_symlink_into_git_dir_is_refused(repo: Path):
    os.symlink(".git", repo / "innocent")
    os.symlink(".git/config", repo / "cfg")
    box = Toolbox(str(repo))
    for path in ("innocent/config", "cfg"):
        with pytest.raises(ToolError, match=r"\.git/"):
            run(box, "read_file", path=path)


@pytest.mark.integration
def test_symlink_inside_the_checkout_is_followed(repo: Path):
    os.symlink("src/calc.py", repo / "link.py")
    assert "return a - b" in run(Toolbox(str(repo)), "read_file", path="link.py")


@pytest.mark.integration
def test_fifo_is_refused_without_blocking(repo: Path):
    os.mkfifo(repo / "pipe")
    box = Toolbox(str(repo))
    with pytest.raises(ToolError, match="not a regular file"):
        run(box, "read_file", path="pipe")
    # search walks past it instead of opening it
    assert "src/calc.py:2" in run(box, "search_code", pattern="return a")


@pytest.mark.integration
def test_device_file_is_refused(repo: Path):
    os.symlink("/dev/zero", repo / "zero")
    with pytest.raises(ToolError):
        run(Toolbox(str(repo)), "read_file", path="zero")


@pytest.mark.integration
def test_huge_file_is_capped_per_read(repo: Path):
    (repo / "big.txt").write_text(("y" * 99 + "\n") * 50_000)  # ~5 MB
    out = run(Toolbox(str(repo)), "read_file", path="big.txt")
    assert len(out.encode()) <= Limits().read_bytes + 200
    assert "truncated at 64 KiB" in out and "start_line=" in out


@pytest.mark.integration
def test_line_range_and_numbers(repo: Path):
    (repo / "lines.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    out = run(Toolbox(str(repo)), "read_file", path="lines.txt", start_line=40, end_line=42)
    assert out.splitlines() == ["    40  line 40", "    41  line 41", "    42  line 42"]


@pytest.mark.integration
def test_run_budget_is_enforced(repo: Path, tmp_path: Path):
    """The run's output budget is the loop's guard: the Toolbox itself keeps no per-run state."""
    (repo / "big.txt").write_text(("z" * 999 + "\n") * 300)  # every read fills the 64 KiB cap
    reads = [reply(call("read_file", f"c{i}", path="big.txt", start_line=i)) for i in range(1, 21)]
    llm = ScriptedLLM([*reads, answer()])
    trace = TraceWriter(directory=str(tmp_path / "runs"))
    a = Agent(llm, Toolbox(str(repo)), limits=Limits(max_steps=30), trace=trace)
    a.run("goal")
    results = [s for s in trace.trace.steps if s.type == "tool_result"]
    spent = [s.error is not None and "per-run output budget" in s.error for s in results]
    served = spent.index(True)
    assert len(results) == 20 and served in (16, 17)  # 1 MiB / ~64 KiB per read
    assert all(spent[served:])  # once spent, every later call is told so
    assert a.guards.state.output_bytes >= Limits().run_output_bytes


@pytest.mark.integration
def test_binary_file_not_shown(repo: Path):
    (repo / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(ToolError, match="binary"):
        run(Toolbox(str(repo)), "read_file", path="blob.bin")


@pytest.mark.integration
def test_list_files_hides_git(repo: Path):
    out = run(Toolbox(str(repo)), "list_files").splitlines()
    assert ".git/" not in out and "src/" in out and "README.md" in out and ".github/" in out


@pytest.mark.integration
def test_search_code_literal_regex_and_cap(repo: Path):
    box = Toolbox(str(repo))
    assert "src/calc.py:2:     return a - b" in run(box, "search_code", pattern=r"return a\s-")
    assert "no match" in run(box, "search_code", pattern="add(", path="README.md")
    assert "tests/test_calc.py:5" in run(box, "search_code", pattern="add(2", path="tests")
    (repo / "many.txt").write_text("hit\n" * 500)
    out = run(box, "search_code", pattern="hit", path="many.txt")
    assert out.count("many.txt:") == 50 and "stopped at 50 matches" in out
    with pytest.raises(ToolError, match=r"\.git/"):
        run(box, "search_code", pattern="core", path=".git")


@pytest.mark.integration
def test_search_code_never_reads_git_dir(repo: Path):
    out = run(Toolbox(str(repo)), "search_code", pattern="repositoryformatversion")
    assert "no match" in out


@pytest.mark.integration
def test_git_log_and_diff_against_base(repo: Path):
    box = Toolbox(str(repo), base_ref="main")
    log = run(box, "git_log", max_count=5)
    assert "pr: refactor add" in log and "base: calc" in log
    assert "base: calc" not in run(box, "git_log", max_count=1)
    diff = run(box, "git_diff")
    assert "-    return a + b" in diff and "+    return a - b" in diff
    assert run(box, "git_diff", path="README.md").startswith("no changes")


@pytest.mark.integration
def test_git_diff_unknown_base_says_so(repo: Path):
    assert "base is unknown" in run(Toolbox(str(repo)), "git_diff")
    with pytest.raises(ToolError, match="git rev-parse failed"):
        run(Toolbox(str(repo), base_ref="no-such-branch"), "git_diff")


@pytest.mark.integration
def test_git_runs_no_hooks_and_no_external_diff(repo: Path, tmp_path: Path):
    marker = tmp_path / "ran"
    hook = repo / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    git(repo, "config", "diff.external", f"sh -c 'touch {marker}'")
    run(Toolbox(str(repo), base_ref="main"), "git_diff")
    run(Toolbox(str(repo), base_ref="main"), "git_log")
    assert not marker.exists()


@pytest.mark.unit
def test_get_log_ranges_and_tail():
    lines = [(i, f"log line {i}") for i in range(1, 1001)]
    box = Toolbox(".", log=lambda: iter(lines))
    out = run(box, "get_log", start_line=10, end_line=12)
    assert out.splitlines() == [
        "     10  log line 10",
        "     11  log line 11",
        "     12  log line 12",
    ]
    tail = run(box, "get_log")
    assert (
        tail.startswith("last lines") and "log line 1000" in tail and "log line 600\n" not in tail
    )
    assert "not available" in run(Toolbox("."), "get_log")


@pytest.mark.unit
@pytest.mark.parametrize(
    "name, arguments, message",
    [
        ("read_file", {}, "missing parameter 'path'"),
        ("read_file", {"path": "x", "encoding": "utf8"}, "unknown parameter 'encoding'"),
        ("git_log", {"max_count": 500}, "parameter 'max_count'"),
        ("propose_fix", {"diagnosis": "d", "category": "x", "confidence": 2}, "confidence"),
    ],
)
def test_arguments_are_validated(name, arguments, message):
    with pytest.raises(ToolError, match=message):
        parse_arguments(name, arguments)


@pytest.mark.unit
def test_specs_are_plain_json_schema():
    specs = {s.name: s for s in tool_specs()}
    assert set(specs) == {
        "read_file",
        "list_files",
        "search_code",
        "git_log",
        "git_diff",
        "get_log",
        "propose_fix",
    }
    read = specs["read_file"].parameters
    assert read["required"] == ["path"] and read["additionalProperties"] is False
    assert read["properties"]["start_line"] == {"minimum": 1, "type": "integer"}
    assert "test_failure" in specs["propose_fix"].parameters["properties"]["category"]["enum"]


@pytest.mark.integration
def test_overlong_line_is_cut_not_dropped(repo: Path):
    (repo / "min.js").write_text("var a=1;" * 200_000 + "\nsecond line\n")  # 1.6 MB first line
    box = Toolbox(str(repo))
    out = run(box, "read_file", path="min.js")
    first, second = out.splitlines()
    assert first.startswith("     1  var a=1;") and first.endswith("[line cut at 8 KiB]")
    assert len(first) < 8300 and second == "     2  second line"
    assert "min.js:2: second line" in run(box, "search_code", pattern="second")


@pytest.mark.integration
def test_catastrophic_search_pattern_times_out_cleanly(repo: Path):
    (repo / "redos.txt").write_text("a" * 40 + "!\n")
    with pytest.raises(ToolError, match="regex timeout"):
        run(Toolbox(str(repo)), "search_code", pattern="(a|a)+$", path="redos.txt")


@pytest.mark.unit
def test_kernel_trees_are_refused_even_under_a_root_of_slash():
    box = Toolbox("/")
    for path in ("proc/self/environ", "sys/kernel/hostname", "dev/zero"):
        with pytest.raises(ToolError, match="/proc, /sys and /dev"):
            run(box, "read_file", path=path)
    with pytest.raises(Exception, match="not a directory"):
        Toolbox("/proc/self")
