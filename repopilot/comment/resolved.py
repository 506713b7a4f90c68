"""The comment once a later run of the same PR passes: "resolved", with the failure collapsed.

Kept short: a header naming the passing run, the status of fixes already applied or rejected
(a fix still waiting is dropped from the marker, so it can no longer be applied: the failure it
was for is gone), and the previous comment's digest (its header and summary table, which
comment/render.py writes between `repopilot-digest` delimiters) inside a collapsed
`<details>`. A comment that is already a resolved one is left as it is, so a stream of green
runs edits nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from repopilot.comment import markdown as md
from repopilot.comment.marker import Marker, dump_marker, marker_span, parse_marker, sign
from repopilot.comment.render import DIGEST_CLOSE, DIGEST_OPEN
from repopilot.comment.status import status_block

RESOLVED_TAG = "<!-- repopilot-resolved -->"
_MAX_DIGEST = 6000  # characters of the old digest kept (a long summary table is cut)


@dataclass(frozen=True)
class PassingRun:
    """The run that passed. `signing_key` re-signs the marker (never rendered)."""

    repo: str
    run_id: int
    head_sha: str
    run_url: str
    pr_number: int | None = None
    signing_key: str | None = field(default=None, repr=False)


def is_resolved(body: str) -> bool:
    """True when `body` is already a resolved comment (the tag is the line after the marker,
    a place only the bot writes)."""
    span = marker_span(body)
    return span is not None and body[span[1] :].lstrip("\n").startswith(RESOLVED_TAG)


def digest_of(body: str) -> str:
    """The previous comment's digest: the lines between the delimiters, each alone on a line
    (the first pair after the marker: the digest comes before any untrusted text)."""
    lines = body.split("\n")
    try:
        start = lines.index(DIGEST_OPEN)
        end = lines.index(DIGEST_CLOSE, start + 1)
    except ValueError:
        return ""
    text = "\n".join(lines[start + 1 : end]).strip("\n")
    return text if len(text) <= _MAX_DIGEST else md.clip(text, _MAX_DIGEST) + "\n"


def _demote(digest: str) -> str:
    # the old "### RepoPilot: ..." heading must not look like the current state
    return "\n".join(
        line.replace("### RepoPilot: ", "**Earlier:** ", 1) if line.startswith("### ") else line
        for line in digest.split("\n")
    )


def render_resolved(previous: str, run: PassingRun) -> str | None:
    """The resolved body replacing `previous`, or None when nothing should change (no valid
    marker, or already resolved)."""
    old = parse_marker(previous)
    if old is None or is_resolved(previous):
        return None
    kept = tuple(p for p in old.proposals if p.status != "proposed")
    marker = Marker(
        repo=run.repo or old.repo,
        pr=run.pr_number or old.pr,
        run_id=run.run_id,
        head_sha=run.head_sha,
        proposals=kept,
    )
    marker = sign(marker, run.signing_key)
    link = md.link(f"run {run.run_id}", run.run_url)
    held = [p.id for p in kept if p.status == f"applied {run.head_sha}"]
    fix = f"The fix `{held[0]}` held: " if held else ""  # the run tested the applied commit
    head = (
        f"{dump_marker(marker)}\n{RESOLVED_TAG}\n\n"
        f"### RepoPilot: resolved\n\n{fix}{link} at `{run.head_sha[:12]}` passed; "
        f"the failure reported earlier (run {old.run_id}) no longer occurs.\n\n"
    )
    status = status_block(marker)
    digest = digest_of(previous)
    history = ""
    if digest:
        history = (
            f"<details>\n<summary>Earlier failure (run {old.run_id})</summary>\n\n"
            f"{_demote(digest)}\n\n</details>\n"
        )
    return head + (status + "\n" if status else "") + history
