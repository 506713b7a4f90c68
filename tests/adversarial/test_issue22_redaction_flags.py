"""Issue 22, item 9: a value after a secret-named flag or key is a secret whatever its alphabet
(a bare 40-hex stays: commit SHAs look the same).

Secrets are built at run time from a seeded generator (nothing token-shaped is committed)."""

from __future__ import annotations

import random

import pytest

from repopilot.safety.redact import clean_for_model

pytestmark = pytest.mark.unit

_RNG = random.Random(22)


def _hex(n: int) -> str:
    return "".join(_RNG.choice("0123456789abcdef") for _ in range(n))


HEX40, HEX32 = _hex(40), _hex(32)


@pytest.mark.parametrize(
    "line",
    [
        "./release --token {HEX40} --dry-run",
        "gh auth login --with-token --token={HEX40}",
        "deploy --api-key {HEX32}",
        "deploy --api-key=12345678901234",
        "curl -H x --github-token {HEX40}",
        "apikey {HEX32}",
        "using api_key {HEX32} for upload",
        "TOKEN {HEX40}",
        "export SECRET_KEY {HEX32}",
    ],
)
def test_a_value_after_a_secret_flag_or_key_is_redacted(line):
    text = line.format(HEX40=HEX40, HEX32=HEX32)
    out = clean_for_model(text)
    assert HEX40 not in out.text and HEX32 not in out.text, out.text
    assert "12345678901234" not in out.text
    assert out.count == 1


@pytest.mark.parametrize(
    "line",
    [
        "HEAD is now at {HEX40} fix the build",
        "git checkout {HEX40}",
        "Checking out {HEX40}",
        "commit {HEX40}",
        "sha256:{HEX40}",
        "--token-file /tmp/x.txt and {HEX40}",
        "the token expired at 2026-01-01T00:00:00Z",
        "password reset failed for user-1234",
        "--max-tokens 4096",
    ],
)
def test_bare_hex_and_prose_stay(line):
    text = line.format(HEX40=HEX40)
    assert clean_for_model(text).text == text
