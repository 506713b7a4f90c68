"""What a verdict quotes from the log, the same for pattern and unknown verdicts: the failing
region (`Scope`), lines read again after the scan, the context around the evidence, the failing
step's command as a category prior, and every quoted text redacted (`safe`) and templates filled.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import regex

from repopilot.engine.library.loader import Pattern
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.region import Region
from repopilot.engine.verdict.step_prior import SCRIPT_LINES, Prior, header_and_script, prior
from repopilot.engine.verdict.structure import Structure
from repopilot.records import Evidence
from repopilot.safety.masks import registered_masks
from repopilot.safety.redact import redact

DEFAULT_CONTEXT = (2, 3)
MAX_EVIDENCE = 5


@dataclass(frozen=True, slots=True)
class Scope:
    start: int
    end: int  # last line of the failing step
    focus: int  # the line the failure was reported at (exit code line), for closeness


def step_prior_of(region: Region, st: Structure) -> Prior | None:
    """The failing step's command as a category prior (engine/verdict/step_prior.py)."""
    if st.step is None:
        return None
    first = [ln.text for ln in read_lines(region, st.step.start, st.step.start + SCRIPT_LINES)]
    header, script = header_and_script(first)
    return prior(header or st.step.name, script)


def margin(p: Pattern | None) -> tuple[int, int]:
    """Lines of context kept before and after the evidence line."""
    spec = p.spec.context if p else None
    before, after = (spec.before, spec.after) if spec else DEFAULT_CONTEXT
    if p is not None and p.until_re is not None and after == 0:
        after = 50
    return before, after


def reader(region: Region) -> Callable[[int, int], list[Line]]:
    return lambda lo, hi: read_lines(region, lo, hi)


def read_lines(region: Region, lo: int, hi: int) -> list[Line]:
    """Lines `lo..hi`, read from the closest chunk anchor the scan recorded before `lo`."""
    lo = max(1, lo)
    return region.lines(lo, hi, region.anchor_for(lo))


def context(region: Region, line: int, p: Pattern | None) -> tuple[Evidence, ...]:
    before, after = margin(p)
    until = p.until_re if p else None
    start = max(1, line - before)
    anchor = region.anchor_for(line)
    if anchor is not None and anchor[1] > start:
        anchor = None  # the lines before the evidence start in an earlier chunk
    out = []
    for ln in region.lines(start, line + after, anchor):
        out.append(Evidence(line=ln.number, text=safe(ln.text)))
        if until is not None and ln.number > line and _ends(until, ln.text):
            break
    return tuple(out)


def _ends(until: regex.Pattern[str], text: str) -> bool:
    try:
        return until.search(text, timeout=0.05) is not None
    except TimeoutError:  # a slow `until` regex ends the context window instead of the run
        return True


def safe(text: str) -> str:
    """Log text leaves the engine with secrets redacted: verdicts are printed, posted, traced."""
    # Evidence lines are context lines too, and logs repeat lines: each short text is redacted
    # once per set of registered mask values (a value registered later changes the answer).
    if len(text) > MEMO_CHARS:
        return redact(text).text
    return _redacted(text, registered_masks())


MEMO_CHARS = 512  # the memo holds at most 2048 texts this long: a few MB at worst


@functools.lru_cache(maxsize=2048)
def _redacted(text: str, masks: frozenset[str]) -> str:
    return redact(text).text


_FIELD = re.compile(r"\{(\w+)\}")


def fill(template: str, values: dict[str, str]) -> str:
    """Fill `{name}` from captures; unknown names become `?` (templates are data, not code)."""
    return _FIELD.sub(lambda m: values.get(m.group(1), "?"), template)
