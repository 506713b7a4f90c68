"""The job's steps, from one scan: their spans, which step a line is in, whether the job went on
to run its own steps after one, and its last step of work (not an upload/report handler)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from repopilot.engine.match.scan_result import ScanResult
from repopilot.evidence.runners import alternation

# gh prints these when it cannot map lines to steps: a step column that names nothing.
_NO_STEP_NAMES = frozenset({"UNKNOWN STEP", "UNKNOWN"})
# Steps that run after a failure on purpose (`if: always()` / `failure()`): their running says
# nothing about whether an earlier failure was tolerated (runners.toml `handler_step`).
_HANDLER = re.compile("(?i)" + alternation("handler_step"))
_ACTION_STEP = re.compile(
    r"^Run (?:[\w.-]+/[\w./-]+@\S+|\./\S+)$"
)  # `uses: owner/repo@ref`, `./dir`


@dataclass(frozen=True, slots=True)
class StepSpan:
    """One step: its name as the log gives it (None when the log names none) and its lines."""

    index: int  # into ScanResult.steps; -1 for the lines before any step
    name: str | None
    start: int
    end: int


def steps_of(res: ScanResult) -> list[StepSpan]:
    """Step spans in log order. gh's step column and the `##[group]Run` line of the same step
    start on the same line: one span, named by the column unless that names nothing."""
    spans: list[StepSpan] = []
    for i, (line, name) in enumerate(res.steps):
        label = None if name in _NO_STEP_NAMES else name
        if spans and spans[-1].start == line:
            prev = spans[-1]
            spans[-1] = StepSpan(i, prev.name or label, line, line)
            continue
        spans.append(StepSpan(i, label, line, line))
    out = []
    for k, s in enumerate(spans):
        end = spans[k + 1].start - 1 if k + 1 < len(spans) else max(res.lines, s.start)
        out.append(StepSpan(s.index, s.name, s.start, max(end, s.start)))
    return out


def span_at(spans: list[StepSpan], line: int) -> StepSpan | None:
    found = None
    for s in spans:
        if s.start <= line:
            found = s
        else:
            break
    return found


def carried_on(spans: list[StepSpan], after: StepSpan | None) -> bool:
    """Whether the job ran a further script step of its own after `after` (a failure stops the
    job; only `if: always()` handlers, usually uploads and reports, still run)."""
    later = [s for s in spans if after is None or s.start > after.end]
    return any(is_script_step(s.name) and not is_handler(s.name) for s in later)


def is_handler(name: str | None) -> bool:
    """An upload/report/cleanup step, by its name. A `run:` step is named after its command:
    only the words before its first option say what it does (`pytest -p no:cacheprovider` and
    `cargo test --no-fail-fast` are work; `cat logs/test.log` and `npm run coverage` are not)."""
    name = name or ""
    if is_script_step(name):
        words = name.split()
        cut = next((i for i, w in enumerate(words) if w.startswith("-")), len(words))
        name = " ".join(words[:cut])
    return _HANDLER.search(name) is not None


def is_script_step(name: str | None) -> bool:
    """A `run:` step as the raw log names it (`Run <command>`), not an action's (`uses:`)."""
    return (name or "").startswith("Run ") and not _ACTION_STEP.match(name or "")


def span_key(span: StepSpan | None) -> int:
    return -1 if span is None else span.start


def last_work(spans: list[StepSpan]) -> StepSpan | None:
    """The last step that is not an upload/report/cleanup handler."""
    work = [s for s in spans if not is_handler(s.name)]
    return work[-1] if work else (spans[-1] if spans else None)
