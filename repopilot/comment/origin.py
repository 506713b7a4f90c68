"""How a failed job's `origin` (issue 14) reads in the PR comment.

The wording follows the origin and nothing else: only `this_pr` says the PR caused it;
`base_branch` links the base-branch run that fails the same way; `undetermined` says nothing
about blame. When every job has the same origin the comment says it once, in its header.

A guess never blames anyone (issue 20): when the verdict's category is a guess (the fallback's, or
a pattern that only says a command failed with the category read from the step's command), an
origin of `this_pr` or `infra` is shown as undetermined, and the section says the verdict is a
guess (`GUESS_NOTE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from repopilot.comment import markdown as md
from repopilot.records import Verdict
from repopilot.run_records import BaselineRun, OriginVerdict

GUESS_NOTE = (
    "**Low confidence:** the category and key line are a best guess (from generic signals, or "
    "from a pattern not sure enough to decide), so this comment does not say whether this pull "
    "request caused it."
)
# Origins that blame (or clear) the PR from the category or the cause itself: not on a guess.
_NOT_ON_A_GUESS = frozenset({"this_pr", "infra"})

LABELS: dict[str, str] = {
    "this_pr": "this pull request",
    "base_branch": "base branch",
    "flaky": "flaky",
    "infra": "infrastructure",
    "undetermined": "undetermined",
}
NOT_THIS_PR = frozenset({"base_branch", "flaky", "infra"})


def is_guess(v: Verdict) -> bool:
    """A failed verdict with a category that nothing decided (`decided_by: none`): the
    fallback's keyword or step guess, or a pattern's verdict whose calibrated confidence is below
    the decision threshold (engine/verdict/confidence.py: issue 27, decided means sure)."""
    if v.decided_by == "llm" or v.category in ("unknown", "no_failure"):
        return False
    return v.decided_by == "none"


def told(origin: OriginVerdict | None, guess: bool) -> OriginVerdict | None:
    """The origin as the comment tells it: on a guess, `this_pr`/`infra` become undetermined."""
    if origin is None or not guess or origin.origin not in _NOT_ON_A_GUESS:
        return origin
    why = f"{origin.reason}; the failure's cause is only guessed"
    return origin.model_copy(update={"origin": "undetermined", "reason": why})


def _branch(o: OriginVerdict) -> str:
    return md.code_span(o.base_branch, 80) if o.base_branch else "the base branch"


def _run(o: OriginVerdict) -> str:
    if o.base_run_number is None and (o.base_run_url or "").startswith(("https://", "http://")):
        return md.link("an earlier run", o.base_run_url or "")  # issue 28: from the memory
    if o.base_run_number is None:
        return "a recent run"
    label = f"run #{o.base_run_number}"
    if o.base_run_url and o.base_run_url.startswith(("https://", "http://")):
        return md.link(label, o.base_run_url)
    return md.text(label)


def rerun_link(o: OriginVerdict | None, run_link: str) -> str:
    """`re-run the failed jobs`, linked to the run to re-run (the origin's, else the run's)."""
    url = o.rerun_url if o is not None and o.rerun_url else run_link
    if url.startswith(("https://", "http://")):
        return f"{md.link('re-run the failed jobs', url)} (Re-run jobs → Re-run failed jobs)"
    return "re-run the failed jobs (Re-run jobs → Re-run failed jobs)"


def rebase_step(o: OriginVerdict) -> str:
    """The next step for a failure the base branch has too: wait for its fix, then rebase."""
    how = (
        f" ({md.code_span(f'git pull --rebase origin {o.base_branch}', 120)}, then push)"
        if o.base_branch
        else ""
    )
    return (
        f"nothing to change in this pull request for it: once {_branch(o)} is fixed (it fails "
        f"the same way in {_run(o)}), rebase this branch on it{how} and CI runs again."
    )


def origin_line(origin: OriginVerdict | None) -> str:
    """The origin paragraph ("" when no origin was decided, or undetermined). What to do about
    it is the section's next step (comment/blocks.py), so it is not said here."""
    if origin is None:
        return ""
    o = origin
    text = {
        "this_pr": (
            f"the same job passes on {_branch(o)} ({_run(o)}), so this looks caused by the "
            "changes in this pull request."
        ),
        "base_branch": f"also failing on {_branch(o)} since {_run(o)} — not caused by this PR.",
        "flaky": f"{md.text(o.reason, 200)} — not caused by this PR.",
        "infra": f"{md.text(o.reason, 200)}, not the code — not caused by this PR.",
    }.get(o.origin)
    if text is None:  # undetermined: nothing useful to say about blame, so say nothing
        return ""
    return f"**Origin: {LABELS[o.origin]}** — {text}\n\n"


def baseline_line(run: BaselineRun | None) -> str:
    """The line saying this job's log was compared with the base branch's passing log of the same
    job (issue 20): "Compared with the last green run #N", linked; "" when it was not."""
    if run is None:
        return ""
    label = f"#{run.number}"
    shown = md.link(label, run.url) if run.url.startswith(("https://", "http://")) else label
    return (
        f"Compared with the last green run {shown} of this job on the base branch: lines it also "
        "printed were not taken as the cause.\n\n"
    )


def origin_cell(origin: OriginVerdict | None) -> str:
    """The origin in a table cell: its code name, or a dash."""
    return f"`{origin.origin}`" if origin is not None else "–"


def origin_header(origins: Sequence[OriginVerdict | None]) -> str | None:
    """The comment's one-line verdict from the jobs' origins; None when no job has one (the
    comment then falls back to its category-based sentence)."""
    known = {o.origin for o in origins if o is not None}
    decided = known - {"undetermined"}
    if not decided:
        return None
    some = "undetermined" in known  # a job whose origin is undetermined is not blamed either way
    if decided == {"this_pr"}:
        if some:
            return "Part of this looks caused by the changes in this pull request; see each job."
        return "This looks caused by the changes in this pull request."
    if "this_pr" in decided:
        return (
            "Part of this looks caused by the changes in this pull request; see each job's origin."
        )
    subject = "Some of this does" if some else "This does"
    if decided == {"base_branch"}:
        return (
            f"{subject} not look caused by this pull request: "
            "it fails the same way on the base branch."
        )
    rerun = " a re-run may be enough" if decided & {"flaky", "infra"} else " see each job"
    kinds = ", ".join(LABELS[k] for k in sorted(decided))
    return f"{subject} not look caused by this pull request ({kinds});{rerun}."
