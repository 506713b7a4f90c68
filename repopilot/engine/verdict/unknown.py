"""A verdict no pattern decided: the fallback's evidence (engine/verdict/fallback.py) over the
failing step's last lines (only those a green log does not print, with a base log), its category
guessed from keyword families or the step's command at a low confidence, and, when nothing looks
like an error, the command's last words and the command itself.
"""

from __future__ import annotations

from typing import Any

from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.verdict.baseline import Baseline
from repopilot.engine.verdict.candidates import Candidate, first_new, ranked
from repopilot.engine.verdict.fallback import LOOKBACK, guess, last_said
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.quote import (
    DEFAULT_CONTEXT,
    MAX_EVIDENCE,
    context,
    read_lines,
    reader,
    safe,
    step_prior_of,
)
from repopilot.engine.verdict.region import Region
from repopilot.engine.verdict.step_prior import guess_category
from repopilot.engine.verdict.structure import Structure
from repopilot.logs.reader import JobLog
from repopilot.records import Evidence, Verdict


def unknown_verdict(
    job: JobLog,
    res: ScanResult,
    st: Structure,
    common: dict[str, Any],
    base: Baseline | None = None,
    after: int = 0,
) -> Verdict:
    lo = max(st.start, st.focus - LOOKBACK, after + 1)
    region = Region(job, res, DEFAULT_CONTEXT)
    lines = read_lines(region, lo, st.focus)
    errors = st.script_errors
    if base is not None:  # only what the green log does not print can be the cause
        lines = base.fresh(lines, lambda ln: ln.text)
        errors = tuple(base.fresh(errors, lambda e: e[1]))
    g = guess(lines, st.focus, errors, st.step.name if st.step else None)
    category, confidence, note = guess_category(
        g.category, g.confidence, lambda: step_prior_of(region, st)
    )
    # distinct candidates (engine/verdict/candidates.py): the guess's line, the script's other
    # `##[error]` messages, the other error blocks' best lines, the first new line, then the
    # guess's block-mates
    head = [Candidate(g.lines[:1], lead=True)] if g.lines else []
    script = [Candidate((ln,)) for ln in g.lines[1:]] if errors else []
    mates = [] if errors else [Candidate((ln,), more=True) for ln in g.lines[1:]]
    others = [Candidate((ln,)) for ln in g.others]
    read = reader(region)
    novel = first_new(read, st, base)  # with a base log: where this run first differs
    picked = ranked([*head, *script, *others, *novel, *mates], MAX_EVIDENCE, base)
    if not head and st.step is not None and st.step.name:
        # Nothing error-like in the failing step: the last thing the command printed before its
        # exit line (where scripts say why in their own words), then the command itself. Only
        # where the runner's exit line follows the output at once (GitHub): Travis repeats a
        # multi-line command in its exit message, and a diff's last line tells nothing.
        header = Line(st.step.start, st.step.name, False)
        said = None
        if job.fmt in ("gha", "ghcli"):
            said = last_said(lines, st.step.start, st.focus, st.step.name)
        words = Candidate((header,) if said is None else (said, header), lead=True)
        picked = ranked([words, *novel], MAX_EVIDENCE)  # its lines are new already
    evidence = tuple(Evidence(line=ln.number, text=safe(ln.text)) for ln in picked)
    around = context(region, evidence[0].line, None) if evidence else ()
    step = common.get("step")
    guessed = category != "unknown"
    looks = f"looks like {category.replace('_', ' ')}" + (f", {note}" if note else "")
    return Verdict(
        category=category,
        confidence=confidence,
        decided_by="none",
        title=(f"Unrecognized failure in {step}" if step else "Unrecognized failure")
        + (f" ({looks})" if guessed else ""),
        hint="No pattern recognizes this failure; read the evidence lines and the step's end.",
        evidence=evidence,
        context=around,
        ambiguous=guessed,  # a guess: the LLM (when configured) still gets to look
        **common,
    )
