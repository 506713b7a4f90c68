"""The run trace (docs/CONTRACTS.md Contract 5): `.runs/<run_id>.json`, one AgentStep per event.

The core loop owns a TraceWriter, appends steps and calls `save()` in a `finally` after every step,
so a crash leaves the trace up to the last step. Files are written atomically (temp file + rename).
Every string in arguments, results and errors is redacted before it is stored: counts of
redactions may appear in a trace, the values never.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from repopilot.errors import TraceError
from repopilot.records import StepType
from repopilot.run_records import AgentStep, RunTrace, first_error
from repopilot.safety.redact import clean_for_model

DEFAULT_DIR = ".runs"
_RUN_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def redact_value(value: Any) -> Any:
    """`value` with every string passed through the model redactor (dicts and lists walked)."""
    if isinstance(value, str):
        return clean_for_model(value).text
    if isinstance(value, dict):
        return {str(k): redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value


class TraceWriter:
    """Appends AgentSteps to a RunTrace and writes it to `<dir>/<run_id>.json`.

    `directory` defaults to `.runs` in the current directory (the entry points pass the
    configured one, REPOPILOT_TRACE_DIR: repopilot/settings.py).
    A trace that cannot be written does not stop the run: `save_error` says why."""

    def __init__(
        self,
        goal: str = "",
        *,
        run_id: str | None = None,
        directory: str | os.PathLike[str] | None = None,
    ):
        run_id = run_id or new_run_id()
        if not _RUN_ID.fullmatch(run_id):  # it becomes a file name
            raise ValueError(f"run id {run_id!r}: use letters, digits, '.', '_' or '-'")
        self.trace = RunTrace(run_id=run_id, goal=redact_value(goal), started_at=utcnow())
        self.directory = Path(directory or DEFAULT_DIR)
        self.path = self.directory / f"{self.trace.run_id}.json"
        self.save_error: str | None = None

    def add(
        self,
        type: StepType,
        *,
        model: str | None = None,
        tool_name: str | None = None,
        arguments: Any = None,
        result: Any = None,
        error: str | None = None,
        duration_ms: float = 0.0,
    ) -> AgentStep:
        """Append one step (redacted) and return it; `save()` writes it."""
        step = AgentStep(
            step_number=len(self.trace.steps) + 1,
            timestamp=utcnow(),
            type=type,
            model=model,
            tool_name=tool_name,
            arguments=redact_value(arguments),
            result=redact_value(result),
            error=None if error is None else clean_for_model(error).text,
            duration_ms=round(duration_ms, 3),
        )
        self.trace.steps.append(step)
        return step

    def finish(self, outcome: str) -> None:
        self.trace.outcome = outcome
        self.trace.finished_at = utcnow()
        self.save()

    def save(self) -> Path | None:
        """Write the trace atomically; the path written, or None (see `save_error`)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            data = json.dumps(self.trace.model_dump(mode="json"), indent=2, ensure_ascii=False)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.trace.run_id}.", dir=self.directory)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(data + "\n")
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            self.save_error = f"trace {self.path}: {exc.strerror or exc}"
            return None
        self.save_error = None
        return self.path


def load(path: str | os.PathLike[str]) -> RunTrace:
    """Read a trace file; TraceError with one line if it is missing or not a Contract 5 trace."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"{path}: {exc.strerror or 'cannot read'}") from None
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not UTF-8 text") from None
    try:
        return RunTrace.model_validate_json(raw)
    except ValidationError as exc:
        raise TraceError(f"{path}: not a RepoPilot trace ({first_error(exc)})") from None


def _seconds(trace: RunTrace) -> float | None:
    if not trace.finished_at:
        return None
    try:
        start = datetime.fromisoformat(trace.started_at.replace("Z", "+00:00"))
        end = datetime.fromisoformat(trace.finished_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (end - start).total_seconds()


def summary(trace: RunTrace, path: str | os.PathLike[str] | None = None) -> str:
    """The run summary: goal, steps, LLM calls, tool calls, errors, tokens, duration."""
    u = trace.usage
    errors = sum(1 for s in trace.steps if s.type == "error" or s.error)
    goal = next((line for line in trace.goal.splitlines() if line.strip()), "(none)")
    secs = _seconds(trace)
    lines = [
        f"run {trace.run_id}: {trace.outcome or 'unfinished'}",
        f"goal: {goal[:120]}",
        f"steps: {len(trace.steps)} (llm calls {u.llm_calls}, tool calls {u.tool_calls}, "
        f"errors {errors})",
        f"tokens: {u.prompt_tokens} prompt + {u.completion_tokens} completion "
        f"= {u.prompt_tokens + u.completion_tokens}",
        f"duration: {'unfinished' if secs is None else f'{secs:.1f} s'}",
    ]
    if path is not None:
        lines.append(f"trace: {path}")
    return "\n".join(lines)
