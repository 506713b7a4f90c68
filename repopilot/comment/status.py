"""The visible status of each proposal, and `mark_status` which changes it after apply/reject.

The status block is generated from the marker alone (ids, statuses, commit SHAs: nothing a log or
a model wrote), and sits between the marker and any untrusted content, so the first status
delimiters after the marker are always the real ones.

Under each offered diff, the apply/reject instructions sit between `<!-- repopilot-cmd:<id> -->`
and `<!-- /repopilot-cmd -->`, each alone on a line outside any code fence. Untrusted text cannot
forge such a line: it reaches the comment only inside fences (whose backtick runs are longer than
any inside), inside single-line code spans, or escaped (`<` becomes `\\<`). `mark_status`
replaces what lies between them by the outcome.
"""

from __future__ import annotations

import re

from repopilot.comment.marker import Marker, dump_marker, marker_span, parse_marker

STATUS_OPEN = "<!-- repopilot-status -->"
STATUS_CLOSE = "<!-- /repopilot-status -->"
_CMD_CLOSE = "<!-- /repopilot-cmd -->"
_FENCE = re.compile(r"^(`{3,})")


def cmd_open(proposal_id: str) -> str:
    return f"<!-- repopilot-cmd:{proposal_id} -->"


def cmd_close() -> str:
    return _CMD_CLOSE


def outcome_text(proposal_id: str, status: str, note: str = "") -> str:
    """What stands under a diff: the commands while it waits, the outcome once decided (and,
    after an apply, `note`: how CI gets to the new head, RepoPilot's own Markdown)."""
    if status == "proposed" or not status:
        return (
            f"**Next step:** to apply it as one commit on this PR, a maintainer comments "
            f"`/repopilot apply {proposal_id}`; to dismiss it, `/repopilot reject {proposal_id}`."
        )
    if status.startswith("applied "):
        done = f"**Applied** in {status.split(' ', 1)[1]} after a maintainer's approval."
        return f"{done} {note}" if note else done
    return "**Rejected** by a maintainer: it will not be applied."


def _outside_fences(lines: list[str]) -> list[bool]:
    """For each line, whether it lies outside every fenced code block (ours are backtick fences
    closed by a line of exactly the opening run)."""
    out, fence = [], None
    for line in lines:
        if fence is None:
            m = _FENCE.match(line)
            out.append(m is None)
            fence = m.group(1) if m else None
        else:
            out.append(False)
            if line.rstrip() == fence:
                fence = None
    return out


def _replace_cmd(text: str, proposal_id: str, status: str, note: str = "") -> str:
    lines = text.split("\n")
    free = _outside_fences(lines)
    opener = cmd_open(proposal_id)
    for i, line in enumerate(lines):
        if not (free[i] and line == opener):
            continue
        end = next((j for j in range(i + 1, len(lines)) if free[j] and lines[j] == _CMD_CLOSE), -1)
        if end < 0:
            return text
        new = [opener, "", outcome_text(proposal_id, status, note), ""]
        return "\n".join(lines[:i] + new + lines[end:])
    return text


def _line(proposal_id: str, status: str) -> str:
    if status == "proposed":
        return f"- Fix `{proposal_id}`: waiting for a maintainer (the commands are under its diff)"
    if status.startswith("applied "):
        return f"- Fix `{proposal_id}`: applied in {status.split(' ', 1)[1]}"
    return f"- Fix `{proposal_id}`: rejected"


def status_block(marker: Marker) -> str:
    """The block for `marker`'s proposals; empty when there are none."""
    if not marker.proposals:
        return ""
    lines = [_line(p.id, p.status) for p in marker.proposals]
    return f"{STATUS_OPEN}\n\n**Proposed fixes**\n\n" + "\n".join(lines) + f"\n\n{STATUS_CLOSE}\n"


def mark_status(body: str, proposal_id: str, status: str, note: str = "") -> str:
    """`body` with the proposal's status changed in the marker and in the status block.

    `status` is `proposed`, `rejected` or `applied <commit>`; `note` follows an apply's outcome
    (how CI gets to the new head: never text from a log or a model). Raises ValueError when the body has
    no valid marker, the proposal is not in it, or the status is malformed. The marker's HMAC is
    kept: it does not cover the status.
    """
    marker = parse_marker(body)
    span = marker_span(body)
    if marker is None or span is None:
        raise ValueError("comment has no valid RepoPilot marker")
    if marker.proposal(proposal_id) is None:
        raise ValueError(f"proposal {proposal_id!r} is not in the comment's marker")
    proposals = tuple(
        p if p.id != proposal_id else p.model_validate({**p.model_dump(), "status": status})
        for p in marker.proposals
    )
    updated = marker.model_copy(update={"proposals": proposals})
    head, rest = body[: span[0]] + dump_marker(updated), body[span[1] :]
    start = rest.find(STATUS_OPEN)
    end = rest.find(STATUS_CLOSE, start + 1) if start >= 0 else -1
    rest = _replace_cmd(rest, proposal_id, status, note)
    if start < 0 or end < 0:
        return head + rest
    block = status_block(updated)
    after = rest[end + len(STATUS_CLOSE) :]
    return head + rest[:start] + block.rstrip("\n") + after
