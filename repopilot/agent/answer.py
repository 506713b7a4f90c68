"""The model's final answer, schema-validated.

A final answer is a reply without a tool call (ideally a JSON object `{diagnosis, category,
confidence}`, prose is accepted) or a `propose_fix` call. A category outside the taxonomy is
ignored, a confidence outside 0..1 too: the model's word never widens what the code accepts.
"""

from __future__ import annotations

import re
from typing import Any, cast

from pydantic import BaseModel, ConfigDict

from repopilot.agent.limits import Limits
from repopilot.agent.schema import ProposeFix
from repopilot.records import CATEGORIES, AssignedCategory
from repopilot.safety.jsonbound import json_limit, loads_bounded
from repopilot.safety.redact import clean_for_model


class FormatError(Exception):
    """A reply the loop cannot use; the message is sent back to the model as an observation."""


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    diagnosis: str
    category: AssignedCategory | None = None
    confidence: float | None = None


def _clean(diagnosis: str, limit: int) -> str:
    """The model saw only redacted text, but what it writes is printed and posted: redact it too."""
    return clean_for_model(diagnosis.strip()[:limit]).text


def _category(value: Any) -> AssignedCategory | None:
    ok = isinstance(value, str) and value in CATEGORIES
    return cast(AssignedCategory, value) if ok else None


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


def parse_final(text: str, limit: int = Limits.max_diagnosis_chars) -> Answer:
    """The answer in a reply without tool calls (diagnosis cut to `limit` characters);
    FormatError if it holds none."""
    text = (text or "").strip()
    if not text:
        raise FormatError("empty reply: call a tool, or answer with the JSON object")
    obj = json_object(text)
    if obj is None:
        if text[:1] in "[{" and (why := json_limit(text)) is not None:
            # not prose and not a usable object: a format error, so a model that keeps sending
            # such replies ends in the deterministic verdict (the loop's format-error limit)
            raise FormatError(f"the reply is not a usable JSON answer: {why}")
        return Answer(diagnosis=_clean(text, limit))
    diagnosis = obj.get("diagnosis")
    if not isinstance(diagnosis, str) or not diagnosis.strip():
        raise FormatError('the JSON answer needs a non-empty "diagnosis" string')
    return Answer(
        diagnosis=_clean(diagnosis, limit),
        category=_category(obj.get("category")),
        confidence=_confidence(obj.get("confidence")),
    )


def from_propose(args: ProposeFix, limit: int = Limits.max_diagnosis_chars) -> Answer:
    return Answer(
        diagnosis=_clean(args.diagnosis, limit),
        category=_category(args.category),
        confidence=args.confidence,
    )
