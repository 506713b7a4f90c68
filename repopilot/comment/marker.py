"""The hidden marker of the RepoPilot PR comment: `<!-- repopilot:{json} -->` on its first line.

The marker is the comment's machine-readable half. Per proposal it holds the id, the SHA-256 of the
diff, the head SHA it was made against, its status, and the diff itself (zlib + base64), so the
diff applied is byte-for-byte the one proposed whatever Markdown does to the visible copy (CRLF,
trailing spaces, no final newline). An optional HMAC-SHA256 binds repository, PR, run, head SHA and
every (id, sha256, head_sha) to a `signing-key`; the status is not signed, because only the bot
edits it and `mark_status` has no key (a forged status can only block an apply, not make one).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import zlib

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from repopilot.records import Origin

MARKER_PREFIX = "<!-- repopilot:"
MARKER_SUFFIX = " -->"
MAX_DIFF_BYTES = 1_000_000  # a marker never inflates to more than this (zlib bomb guard)

PROPOSAL_ID = re.compile(r"[a-z0-9-]{6,40}")
_STATUS = re.compile(r"proposed|rejected|applied [0-9a-f]{7,64}")
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class MarkerProposal(BaseModel):
    """One proposal as the marker records it; `diff_z` is the exact diff, zlib'd and base64'd."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    sha256: str
    head_sha: str
    status: str = "proposed"
    diff_z: str = ""

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not PROPOSAL_ID.fullmatch(v):
            raise ValueError("proposal id must match [a-z0-9-]{6,40}")
        return v

    @field_validator("sha256")
    @classmethod
    def _sha256(cls, v: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{64}", v):
            raise ValueError("sha256 must be 64 lowercase hex digits")
        return v

    @field_validator("head_sha")
    @classmethod
    def _head(cls, v: str) -> str:
        if not _SHA.fullmatch(v):
            raise ValueError("head_sha must be a full lowercase hex commit SHA")
        return v

    @field_validator("status")
    @classmethod
    def _status(cls, v: str) -> str:
        if not _STATUS.fullmatch(v):
            raise ValueError("status must be proposed, rejected or 'applied <commit>'")
        return v


class Marker(BaseModel):
    """The whole marker. `repo` and `pr` let the apply path refuse a marker from elsewhere."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    v: int = 1
    repo: str = ""
    pr: int | None = Field(default=None, ge=1)
    run_id: int = Field(ge=0)
    head_sha: str
    proposals: tuple[MarkerProposal, ...] = ()
    hmac: str | None = None
    # job name -> origin (issue 14); not signed: it decides nothing an apply does
    origins: dict[str, Origin] = Field(default_factory=dict)

    def proposal(self, proposal_id: str) -> MarkerProposal | None:
        return next((p for p in self.proposals if p.id == proposal_id), None)


def encode_diff(diff: str) -> str:
    return base64.b64encode(zlib.compress(diff.encode("utf-8"), 9)).decode("ascii")


def decode_diff(payload: str) -> str | None:
    """The diff back from `diff_z`, or None when it is not valid or inflates past the cap."""
    try:
        raw = base64.b64decode(payload.encode("ascii"), validate=True)
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, MAX_DIFF_BYTES)
        if inflater.unconsumed_tail or not inflater.eof:
            return None
        return data.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeError, ValueError):
        return None


def canonical(marker: Marker) -> bytes:
    """The signed bytes: everything that decides what an apply does, in a fixed JSON form."""
    doc = {
        "v": marker.v,
        "repo": marker.repo,
        "pr": marker.pr,
        "run_id": marker.run_id,
        "head_sha": marker.head_sha,
        "proposals": [[p.id, p.sha256, p.head_sha] for p in marker.proposals],
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign(marker: Marker, key: str | None) -> Marker:
    """The marker with its HMAC set (or cleared when there is no key)."""
    if not key:
        return marker.model_copy(update={"hmac": None})
    digest = hmac.new(key.encode("utf-8"), canonical(marker), hashlib.sha256).hexdigest()
    return marker.model_copy(update={"hmac": digest})


def verify_marker(marker: Marker, key: str | None) -> bool:
    """True when no key is configured, or the marker carries a valid HMAC for that key."""
    if not key:
        return True
    if not marker.hmac:
        return False
    expected = sign(marker, key).hmac or ""
    return hmac.compare_digest(expected, marker.hmac)


def dump_marker(marker: Marker) -> str:
    """`<!-- repopilot:{json} -->`. The JSON has no `-`, `<` or `>` (escaped as `\\u002d`...),
    so nothing inside can end or nest the HTML comment."""
    text = json.dumps(
        marker.model_dump(exclude_defaults=False), ensure_ascii=True, separators=(",", ":")
    )
    # Outside strings these characters cannot occur (no negative numbers); inside, JSON escapes.
    text = text.replace("-", "\\u002d").replace("<", "\\u003c").replace(">", "\\u003e")
    return f"{MARKER_PREFIX}{text}{MARKER_SUFFIX}"


def marker_span(body: str) -> tuple[int, int] | None:
    """Where the marker sits: it must open the comment (leading whitespace allowed)."""
    start = len(body) - len(body.lstrip(" \t\r\n\ufeff"))
    if not body.startswith(MARKER_PREFIX, start):
        return None
    end = body.find("-->", start + len(MARKER_PREFIX))
    if end < 0:
        return None
    return start, end + 3


def parse_marker(body: str) -> Marker | None:
    """The marker opening `body`, validated; None when absent or malformed in any way."""
    span = marker_span(body)
    if span is None:
        return None
    text = body[span[0] + len(MARKER_PREFIX) : span[1] - 3].strip()
    try:
        return Marker.model_validate(json.loads(text))
    except (ValueError, ValidationError, RecursionError):
        return None


def diff_sha256(diff: str) -> str:
    """Contract 4: SHA-256 of the UTF-8 diff text exactly as given."""
    return hashlib.sha256(diff.encode("utf-8")).hexdigest()


def extract_diff(body: str, proposal_id: str) -> str | None:
    """The exact diff of `proposal_id` from the comment's marker. Not checked against the
    marker's sha256 here: the caller compares `diff_sha256(diff)` with it before applying."""
    marker = parse_marker(body)
    found = marker.proposal(proposal_id) if marker else None
    if found is None or not found.diff_z:
        return None
    return decode_diff(found.diff_z)


_FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})diff[ \t]*\r?$", re.MULTILINE)


def _normal(diff: str) -> str:
    """What a reader sees is the same for CRLF and LF, and with or without the final newline."""
    text = diff.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def shown_diff(body: str, proposal_id: str, ids: tuple[str, ...] | list[str]) -> str | None:
    """The diff the comment SHOWS for `proposal_id`: the content of the ```diff fence whose
    nearest preceding mention of a proposal id (any of `ids`) is `proposal_id`; None if none.

    Without a signing key, whoever can edit the bot's comment could swap the hidden marker's diff
    alone; the apply compares the two (`same_diff`), so what is applied is what was shown."""
    mentions = sorted(
        (m.start(), pid)
        for pid in ids
        for m in re.finditer(rf"(?<![a-z0-9-]){re.escape(pid)}(?![a-z0-9-])", body)
    )
    for m in _FENCE_OPEN.finditer(body):
        owner = next((pid for at, pid in reversed(mentions) if at < m.start()), None)
        if owner != proposal_id:
            continue
        fence = m.group(1)
        start = m.end() + 1
        close = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}[ \t]*\r?$", re.MULTILINE)
        end = close.search(body, start)
        if end is not None:
            return body[start : end.start()]
    return None


def same_diff(shown: str, exact: str) -> bool:
    """True when the shown copy reads as the exact diff (CRLF and a final newline aside)."""
    return _normal(shown) == _normal(exact)
