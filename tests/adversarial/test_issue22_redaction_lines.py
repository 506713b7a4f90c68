"""Issue 22, item 8: redaction never crosses a line boundary (the window sent to the model keeps
every line's number).

Secrets are built at run time from a seeded generator (nothing token-shaped is committed)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from repopilot.safety.redact import clean_for_model

pytestmark = pytest.mark.integration

_RNG = random.Random(22)


def _hex(n: int) -> str:
    return "".join(_RNG.choice("0123456789abcdef") for _ in range(n))


HEX40, HEX32 = _hex(40), _hex(32)

# an `env:` block as the runner prints it, past line 100 so a gutter number has 4+ characters
ENV_LOG = [f"step {i} ok" for i in range(1, 121)] + [
    "Run ./deploy.sh",
    "  env:",
    "    GH_TOKEN:",
    "    DEPLOY_ENV: production",
    "    OTHER: 1",
    "+ ./deploy.sh",
    "error: deployment failed",
    "Error: Process completed with exit code 1.",
]


def test_context_keeps_the_line_number_after_an_empty_secret_key(tmp_path):
    log = tmp_path / "env.log"
    log.write_text("\n".join(ENV_LOG) + "\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "repopilot", "context", "--assume-failed", str(log)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.endswith("GH_TOKEN:")]
    assert lines[at] == "123|     GH_TOKEN:"
    assert lines[at + 1] == "124|     DEPLOY_ENV: production"  # not `[REDACTED:...]  DEPLOY_ENV`
    assert "REDACTED" not in out


# a secret-looking key with nothing after it, then the window's next line
EMPTY_KEYS = [
    "GH_TOKEN:",
    "api_key =",
    "password:",
    'secret: "',
    "Authorization:",
    "authorization: Bearer",
    "aws_secret_access_key =",
    "machine example.com login me password",
    "apikey",
    "--token",
]


@pytest.mark.parametrize("key", EMPTY_KEYS)
@pytest.mark.parametrize("gutter", ["124| ", "  124  ", "2026-01-01T00:00:00.0000000Z "])
def test_no_redaction_crosses_a_line_boundary(key, gutter):
    nxt = f"{gutter}    DEPLOY_ENV: production-{HEX32[:8]}"
    text = f"123| {key}\n{nxt}\nlast line"
    out = clean_for_model(text).text.split("\n")
    assert len(out) == 3
    assert out[1] == nxt, key  # the next line, gutter and all, is untouched
    assert out[0].startswith("123| ")
