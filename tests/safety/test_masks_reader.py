"""`::add-mask::` values are hidden wherever the log prints them later, however far away."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

SECRET = "Zq9wXv7Lm2Pk"
STAMP = "2026-01-01T00:00:00.0000000Z "


def _log(path: Path, filler: int) -> Path:
    lines = [f"{STAMP}##[group]Run ./login.sh", f"{STAMP}::add-mask::{SECRET}"]
    lines += [f"{STAMP}building module {i}" for i in range(filler)]
    lines += [
        f"{STAMP}Error: authentication failed for token {SECRET}",
        f"{STAMP}##[error]Process completed with exit code 1.",
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("filler", [3_000, 40_000])  # the second spans several 1 MiB chunks
def test_a_masked_value_far_from_its_registration_is_redacted(tmp_path, filler):
    log = _log(tmp_path / "job.log", filler)
    out = subprocess.run(
        [sys.executable, "-m", "repopilot", "classify", "--format", "json", str(log)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert SECRET not in out
    [result] = json.loads(out)["results"]
    assert any("[REDACTED:add-mask]" in e["text"] for e in result["evidence"])
