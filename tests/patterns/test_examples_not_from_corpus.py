"""No pattern example is a line copied out of ../shared/corpus (skipped when it is absent).

House rule: patterns (their `examples:` included) are written from how each tool formats its
output, never from the corpus. An example of 30+ characters that occurs verbatim in a corpus log
(as a regex sees the line: ANSI colour codes and CR removed) AND carries a variable part (a digit,
a path with `/` or `\\`, or a quoted name) was copied: its file names, line numbers, counts or
durations are the corpus's own. A tool's fixed message (`ninja: build stopped: subcommand
failed.`) is printed verbatim by every real log, so it may appear there.

The corpus (~135 MB) is read once, file by file: one RE2 alternation of every long example finds
the candidate lines, and only those lines are kept for the exact check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repopilot.engine.library.loader import load_file
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.corpus
# (the `fast` extra: one RE2 alternation reads the corpus in seconds, `regex` would take minutes)
re2 = pytest.importorskip("re2", reason="google-re2 (the fast extra) is not installed")

CORPUS = REPO_ROOT.parent / "shared" / "corpus"
PATTERNS = REPO_ROOT / "patterns"
MIN_LEN = 30
_ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
# A number, a path separator, a name in quotes, or a hex address/hash: the parts a copied line
# brings from its project.
_VARIABLE = re.compile(
    r"\d|[/\\]|'[^'\s][^']*'|\"[^\"\s][^\"]*\"|`[^`\s][^`]*`|‘[^’]+’|“[^”]+”|\b[0-9a-fA-F]{8,}\b"
)
# Fixed messages whose digits belong to the message itself, with where the tool prints them.
FIXED = {
    # GCC's collect2 (gcc/collect2.cc, "%s returned %d exit status" with ld's status, which is
    # 1 for every link error ld reports)
    "collect2: error: ld returned 1 exit status",
    # The Actions runner's step end (actions/runner ProcessInvoker, "Process completed with exit
    # code {0}."): 139 is 128 + SIGSEGV, what every segfaulting step exits with; infra.crash.segfault
    # must not take that line for the crash itself.
    "Process completed with exit code 139.",
}


def examples_by_text() -> dict[str, list[str]]:
    """Every example of 30+ characters (stripped) -> the `file: id` of the patterns holding it."""
    found: dict[str, list[str]] = {}
    for path in sorted(PATTERNS.glob("*.yaml")):
        for p in load_file(path):
            lines = [m if isinstance(m, str) else m.line for m in p.spec.examples.match]
            for line in [*lines, *p.spec.examples.no_match]:
                text = line.strip()
                if len(text) >= MIN_LEN:
                    found.setdefault(text, []).append(f"{path.name}: {p.id}")
    return found


def has_variable_part(text: str) -> bool:
    """True when the text carries something a project's own log chose (see the module docstring)."""
    return text not in FIXED and _VARIABLE.search(text) is not None


def lines_holding_any(needles: list[str], root: Path) -> set[bytes]:
    """The corpus log lines (ANSI and CR removed) that contain at least one of the needles."""
    options = re2.Options()
    options.max_mem = 256 << 20  # the alternation's DFA: ~1600 literals
    alternation = re2.compile(b"|".join(re2.escape(n.encode()) for n in needles), options)
    hits: set[bytes] = set()
    for log in sorted(root.rglob("*.log")):
        data = log.read_bytes()
        if b"\x1b" in data:
            data = _ANSI.sub(b"", data)
        data = data.replace(b"\r", b"")
        for m in alternation.finditer(data):
            start = data.rfind(b"\n", 0, m.start()) + 1
            end = data.find(b"\n", m.end())
            hits.add(data[start : len(data) if end < 0 else end])
    return hits


def test_the_variable_part_rule():
    assert has_variable_part("docs/intro.md:311: MD013 Line length")
    assert has_variable_part("Overfull \\hbox (4.2pt too wide) in paragraph at lines 88--90")
    assert has_variable_part("SyntaxError: Unexpected token 'yield' in the module")
    assert has_variable_part("fatal: unsafe repository (/srv/app is owned by someone else)")
    assert has_variable_part("Access violation in generated code when reading deadbeefcafe")
    assert not has_variable_part("ninja: build stopped: subcommand failed.")
    assert not has_variable_part("collect2: error: ld returned 1 exit status")
    assert not has_variable_part("Code style issues found in the above file(s). Forgot to run it?")


def test_the_scan_sees_lines_as_a_pattern_does(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "job.log").write_bytes(
        b"2026-01-02T03:04:05Z start\r\n\x1b[31mFAILED tests/t_x.py::test_y - boom\x1b[0m\r\n"
    )
    (tmp_path / "notes.txt").write_bytes(b"FAILED tests/t_z.py::test_q - not a log\n")
    found = lines_holding_any(["FAILED tests/t_x.py::test_y", "tests/t_z.py::test_q"], tmp_path)
    assert found == {b"FAILED tests/t_x.py::test_y - boom"}


def test_no_example_is_copied_from_the_corpus():
    if not CORPUS.is_dir() or not any(CORPUS.rglob("*.log")):
        pytest.skip(f"../shared/corpus is not present (looked at {CORPUS})")
    examples = examples_by_text()
    lines = lines_holding_any(sorted(examples), CORPUS)
    copied = [
        f"{where}: {text}"
        for text, places in sorted(examples.items())
        if has_variable_part(text) and any(text.encode() in line for line in lines)
        for where in places
    ]
    assert not copied, f"{len(copied)} examples copied from ../shared/corpus:\n" + "\n".join(
        sorted(copied)
    )
