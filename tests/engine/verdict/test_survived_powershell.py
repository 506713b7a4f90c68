"""Windows PowerShell's error record is no "another command started" (engine/verdict/survived.py,
"went on"): after a failed command's message it prints `At <script>:<line> char:<column>`, then the
code line that failed and a caret line, each after `+ ` as bash xtrace echoes a command. Those
quote the command that failed; the error above them is still the cause. Logs written for the test
from PowerShell's documented NormalView error format (about_Error_Handling) and git's messages,
none copied from a corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.line_score import Line, command_starts

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "

RECORD = [
    "git : fatal: unable to access 'https://github.com/acme/sdk.git/': "
    "Could not resolve host: github.com",
    r"At C:\a\_temp\3f1c2a.ps1:2 char:1",
    "+ git clone https://github.com/acme/sdk.git",
    "+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    "    + CategoryInfo          : NotSpecified: (fatal: unable t...ve host: github.com:String) "
    "[], RemoteException",
    "    + FullyQualifiedErrorId : NativeCommandError",
    "",
]


def lines(*texts: str) -> list[Line]:
    return [Line(i, t, False) for i, t in enumerate(texts, start=1)]


def test_an_error_records_quoted_code_starts_no_command():
    assert list(command_starts(lines(*RECORD))) == []
    # the interactive form names no script
    assert list(command_starts(lines("At line:1 char:1", "+ npm publish", "+ ~~~~~~~~~~~"))) == []


def test_xtrace_after_an_error_record_still_starts_a_command():
    got = command_starts(lines(*RECORD, "+ git fetch origin", "+ make", "> app@1.0.0 build"))
    assert list(got) == [8, 9, 10]


def test_the_error_a_powershell_record_reports_stays_the_cause(tmp_path: Path):
    body = [
        "##[group]Run git clone https://github.com/acme/sdk.git",
        "git clone https://github.com/acme/sdk.git",
        "shell: C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.EXE -command \". '{0}'\"",
        "##[endgroup]",
        *RECORD,
        "##[error]Process completed with exit code 1.",
    ]
    log = tmp_path / "job.log"
    log.write_text("".join(TS + ln + "\n" for ln in body), encoding="utf-8")
    (v,) = Classifier(load_library()).classify_path(log)
    assert v.category == "network", (v.pattern_id, [e.text for e in v.evidence])
    assert v.evidence[0].text == RECORD[0]
