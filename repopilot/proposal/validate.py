"""Validate a proposed diff (docs/THREAT_MODEL.md §5) and apply a validated one to file texts in Python.

`validate` turns a diff that passes every check of `repopilot.proposal.policy.check` into a Proposal
(id and SHA-256 of the exact text), or says why not as a Rejection. The checks read the diff three
ways (the strict reader of `repopilot.proposal.diffread`, `unidiff`, git itself) and refuse it unless all
agree and obey the policy; `repopilot.proposal.apply.apply_to_files` applies a validated diff.
The names below stay importable from here; the work lives in those three modules (the known
limit of the checks is in `repopilot.proposal.policy`'s docstring).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from repopilot.proposal.diffread import Refused
from repopilot.proposal.policy import DEFAULT_POLICY, Policy, check
from repopilot.run_records import Proposal, Rejection


def validate(
    diff: str,
    repo: Path | None,
    *,
    diagnosis: str = "",
    confidence: float = 0.0,
    policy: Policy = DEFAULT_POLICY,
) -> Proposal | Rejection:
    """A Proposal for a diff that passes every check (against `repo` when given), else why not."""
    try:
        sections = check(diff, None if repo is None else Path(repo), policy)
    except Refused as exc:
        return Rejection(reason=exc.reason, detail=exc.detail)
    sha = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    files = dict.fromkeys(p for s in sections for p in (s.target or s.source,) if p)
    return Proposal(
        id=f"rp-{sha[:10]}",
        diff=diff,
        sha256=sha,
        files=tuple(files),
        diagnosis=diagnosis,
        confidence=confidence,
    )


def validator_for(
    repo: Path | None, policy: Policy = DEFAULT_POLICY
) -> Callable[[str], Proposal | Rejection]:
    """The diff check an agent run uses: `validate` against `repo` (under `policy`)."""
    return lambda diff: validate(diff, repo, policy=policy)
