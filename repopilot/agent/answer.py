"""The model's final answer, schema-validated, and the trace records of what the loop concluded.

A final answer is a reply without a tool call (ideally a JSON object `{diagnosis, category,
confidence}`, prose is accepted) or a `propose_fix` call. A category outside the taxonomy is
ignored, a confidence outside 0..1 too: the model's word never widens what the code accepts.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from repopilot.agent.schema import ProposeFix
from repopilot.llm.base import ChatResponse, TokenUsage, ToolCall
from repopilot.records import CATEGORIES, Proposal, Rejection
from repopilot.safety.jsonbound import json_limit, loads_bounded
from repopilot.safety.redact import clean_for_model

MAX_DIAGNOSIS = 4000


class FormatError(Exception):
    """A reply the loop cannot use; the message is sent back to the model as an observation."""


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    diagnosis: str
    category: str | None = None
    confidence: float | None = None


def _clean(diagnosis: str) -> str:
    """The model saw only redacted text, but what it writes is printed and posted: redact it too."""
    return clean_for_model(diagnosis.strip()[:MAX_DIAGNOSIS]).text


def _category(value: Any) -> str | None:
    return value if isinstance(value, str) and value in CATEGORIES else None


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0.0 <= value <= 1.0 else None


def json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in a reply: the whole text, a fenced block, or the outermost braces.

    Each candidate is bounded in size and depth before it is parsed (`loads_bounded`): 1,500 `[`
    from a model must read as prose, not raise RecursionError out of `json`."""
    fenced = re.search(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.S)
    candidates = [text.strip()] + ([fenced.group(1)] if fenced else [])
    first, last = text.find("{"), text.rfind("}")
    if 0 <= first < last:
        candidates.append(text[first : last + 1])
    for candidate in candidates:
        try:
            value = loads_bounded(candidate)
        except (ValueError, RecursionError):  # JSONBoundError is a ValueError
            continue
        if isinstance(value, dict):
            return value
    return None


def parse_final(text: str) -> Answer:
    """The answer in a reply without tool calls; FormatError if it holds none."""
    text = (text or "").strip()
    if not text:
        raise FormatError("empty reply: call a tool, or answer with the JSON object")
    obj = json_object(text)
    if obj is None:
        if text[:1] in "[{" and (why := json_limit(text)) is not None:
            # not prose and not a usable object: a format error, so a model that keeps sending
            # such replies ends in the deterministic verdict (the loop's format-error limit)
            raise FormatError(f"the reply is not a usable JSON answer: {why}")
        return Answer(diagnosis=_clean(text))
    diagnosis = obj.get("diagnosis")
    if not isinstance(diagnosis, str) or not diagnosis.strip():
        raise FormatError('the JSON answer needs a non-empty "diagnosis" string')
    return Answer(
        diagnosis=_clean(diagnosis),
        category=_category(obj.get("category")),
        confidence=_confidence(obj.get("confidence")),
    )


def from_propose(args: ProposeFix) -> Answer:
    return Answer(
        diagnosis=_clean(args.diagnosis),
        category=_category(args.category),
        confidence=args.confidence,
    )


def response_record(response: ChatResponse) -> dict[str, Any]:
    """Enough of a model reply to rebuild it for `trace replay` (text, tool calls, usage)."""
    return {
        "text": response.text,
        "tool_calls": [
            {
                "id": c.id,
                "name": c.name,
                "arguments": c.arguments,
                "raw_arguments": c.raw_arguments,
                "arguments_error": c.arguments_error,
            }
            for c in response.tool_calls
        ],
        "usage": response.usage.model_dump(),
        "finish_reason": response.finish_reason,
    }


def response_from_record(result: dict[str, Any], model: str) -> ChatResponse:
    """The inverse of `response_record` (a recorded llm_call step's result)."""
    return ChatResponse(
        text=result.get("text") or "",
        tool_calls=tuple(ToolCall(**c) for c in result.get("tool_calls") or ()),
        usage=TokenUsage(**(result.get("usage") or {})),
        model=model,
        finish_reason=result.get("finish_reason"),
    )


def proposal_record(p: Proposal) -> dict[str, Any]:
    return {"proposal": {"id": p.id, "sha256": p.sha256, "files": list(p.files)}}


def rejection_record(r: Rejection) -> dict[str, Any]:
    return {"rejected": {"reason": r.reason, "detail": r.detail}}
