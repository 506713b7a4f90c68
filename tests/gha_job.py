"""Raw GitHub Actions job logs built line by line for the verdict tests: a checkout step, `run:`
steps with their header, the runner's exit line and its post-job lines, each line stamped."""

from __future__ import annotations

from pathlib import Path

HEAD = ["##[group]Run actions/checkout@v4", "##[endgroup]", "Syncing repository: acme/gadgets"]
END = ["Post job cleanup.", "Cleaning up orphan processes"]
EXIT1 = "##[error]Process completed with exit code 1."


def run_step(command: str, *out: str) -> list[str]:
    """A `run:` step: its header as the runner prints it, then its output."""
    return [f"##[group]Run {command}", command, "shell: /usr/bin/bash -e {0}", "##[endgroup]", *out]


def write_log(path: Path, *lines: str, day: str = "2026-11-29") -> str:
    """`lines` stamped a tenth of a second apart on `day`, written to `path`; its path."""
    stamped = (f"{day}T08:00:{i // 10:02d}.{i % 10}000000Z {t}" for i, t in enumerate(lines))
    path.write_text("\n".join(stamped) + "\n", encoding="utf-8")
    return str(path)
