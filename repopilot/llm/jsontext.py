"""The JSON-in-text protocol for models without native tool calling.

The tools are described in the prompt (`render_tools`); the model answers with one object
`{"thought", "action", "action_input"}` somewhere in its text. `parse_action` digs it out of code
fences and prose and forgives the usual slips of small models (trailing commas, single quotes,
Python literals, raw newlines in strings, alternative key names). A reply it cannot use is a
`ParseFailure` value with a reason for the model, never an exception: the loop turns it into an
observation and goes on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from repopilot.llm.base import Message, ToolCall, ToolSpec
from repopilot.safety.jsonbound import json_limit

FINAL_ACTION = "final_answer"
MAX_REPLY_CHARS = 200_000  # a longer reply is cut before scanning
MAX_CANDIDATES = 32  # object starts tried per reply
MAX_DEPTH = 64  # deeper nesting is not an action object

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_ACTION_KEYS = ("action", "tool", "tool_name", "name", "function")
_INPUT_KEYS = ("action_input", "tool_input", "arguments", "args", "parameters", "input")
# Strings (either quote) are skipped whole, so braces inside them do not count; regex keeps it fast.
_TOKENS = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[{}]""", re.DOTALL)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}

FORMAT_REMINDER = (
    'Reply with exactly one JSON object: {"thought": "...", "action": "<tool name>", '
    f'"action_input": {{...}}}}, or use the action "{FINAL_ACTION}" with '
    '{"answer": "..."} when you are done.'
)


@dataclass(frozen=True)
class ParsedAction:
    """What the model asked for. `repairs` lists the slips that were forgiven (for the trace)."""

    action: str
    action_input: dict[str, Any]
    thought: str = ""
    repairs: tuple[str, ...] = field(default=())

    @property
    def is_final(self) -> bool:
        return self.action == FINAL_ACTION

    def to_tool_call(self, call_id: str) -> ToolCall:
        """The same request as a native tool call, so the loop has one path for both protocols."""
        return ToolCall(id=call_id, name=self.action, arguments=self.action_input)


@dataclass(frozen=True)
class ParseFailure:
    """The reply held no usable action; `reason` says why, in words the model can act on."""

    reason: str

    def observation(self) -> str:
        return f"Your reply could not be used: {self.reason}. {FORMAT_REMINDER}"


def render_tools(tools: list[ToolSpec], final_input: str = '{"answer": "..."}') -> str:
    """Instruction text describing the tools and the reply format, for the system prompt.
    `final_input` is the example action_input shown for the final answer."""
    lines = [
        "You cannot call tools directly. To use a tool, reply with exactly one JSON object and",
        "nothing else:",
        '{"thought": "<your reasoning>", "action": "<tool name>", "action_input": {<arguments>}}',
        "The result comes back as an Observation. When you are done, reply with",
        f'{{"thought": "...", "action": "{FINAL_ACTION}", "action_input": {final_input}}}',
        "",
        "Tools:",
    ]
    for tool in tools:
        schema = json.dumps(tool.parameters, separators=(",", ":"), sort_keys=True)
        lines.append(f"- {tool.name}: {' '.join(tool.description.split())}")
        lines.append(f"  action_input schema: {schema}")
    return "\n".join(lines)


def observation_message(tool_name: str, content: str) -> Message:
    """A tool result for a model without tool calling: a user turn, since it knows no tool role."""
    return Message(role="user", content=f"Observation from {tool_name}:\n{content}")


def parse_action(text: str) -> ParsedAction | ParseFailure:
    """Find the action object in a model reply; see the module docstring for what is forgiven."""
    if not text or not text.strip():
        return ParseFailure("the reply was empty")
    text = text[:MAX_REPLY_CHARS]
    first_error = ""
    for candidate, start, repairs in _candidates(text):
        value, how = _load(candidate)
        if value is None:
            first_error = first_error or how
            continue
        if not isinstance(value, dict):
            continue
        result = _to_action(value, text[:start], (*repairs, *how.split(",")) if how else repairs)
        if result is not None:
            return result
    if first_error:
        return ParseFailure(f"the JSON in the reply is not valid ({first_error})")
    if "{" not in text:
        return ParseFailure("the reply has no JSON object")
    return ParseFailure('no JSON object in the reply has an "action" key')


def _candidates(text: str) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """(json text, offset in reply, repairs) for each fenced block, then each balanced object."""
    for match in _FENCE.finditer(text):
        body = match.group(2).strip()
        if body.startswith(("{", "[")):
            yield body, match.start(), ("code fence",)
        elif "{" in body:
            for obj, offset in _balanced_objects(body):
                yield obj, match.start() + offset, ("code fence", "prose")
    for obj, offset in _balanced_objects(text):
        yield obj, offset, ("prose",) if text.strip() != obj else ()


def _balanced_objects(text: str) -> Iterator[tuple[str, int]]:
    """Top-level `{...}` spans, string-aware (double and single quotes). An unclosed `{` (a cut-off
    reply, or a brace in prose) is yielded to the end and scanning resumes after it; the number of
    starts is capped so a reply full of stray braces stays cheap."""
    i = text.find("{")
    for _ in range(MAX_CANDIDATES):
        if i == -1:
            return
        end = _matching_brace(text, i)
        if end is None:
            yield text[i:], i  # not closed: the loader only reports why it does not parse
            i = text.find("{", i + 1)
        else:
            yield text[i : end + 1], i
            i = text.find("{", end + 1)


def _matching_brace(text: str, start: int) -> int | None:
    depth = 0
    for token in _TOKENS.finditer(text, start):
        mark = token.group()
        if mark == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return None  # no action object nests this deep: treat as not closed
        elif mark == "}":
            depth -= 1
            if depth == 0:
                return token.start()
    return None


def _load(candidate: str) -> tuple[Any, str]:
    """Parse strictly first, then with repairs. Returns (value, repairs) or (None, error)."""
    if (
        too_big := json_limit(candidate)
    ) is not None:  # bounded before parsing (docs/THREAT_MODEL.md §17)
        return None, too_big
    try:
        return json.loads(candidate, strict=False), ""
    except json.JSONDecodeError as exc:
        error = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    except RecursionError:
        return None, "nested too deeply"
    if not candidate.rstrip().endswith(("}", "]")):
        return None, error  # cut off: no repair here adds the missing closers
    for loose in (False, True):
        repaired, applied = _normalize(candidate, loose)
        if not applied:
            continue
        try:
            return json.loads(repaired, strict=False), ",".join(sorted(applied))
        except (json.JSONDecodeError, RecursionError):
            pass
    return None, error


def _normalize(text: str, loose: bool) -> tuple[str, set[str]]:
    """Drop trailing commas; when `loose`, also turn single-quoted strings and Python literals
    into JSON. Strings are copied untouched, so commas or quotes inside them are safe."""
    out: list[str] = []
    applied: set[str] = set()
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i, '"')
            out.append(text[i:end])
            i = end
        elif char == "'" and loose:
            end = _string_end(text, i, "'")
            inner = text[i + 1 : end - 1] if end - 1 > i else text[i + 1 :]
            inner = inner.replace("\\'", "'").replace('"', '\\"')
            out.append(f'"{inner}"')
            applied.add("single quotes")
            i = end
        elif char == ",":
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if j < n and text[j] in "}]":
                applied.add("trailing comma")
            else:
                out.append(char)
            i += 1
        elif loose and (char.isalpha() or char == "_"):
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            if word in _PY_LITERALS:
                applied.add("python literal")
            out.append(_PY_LITERALS.get(word, word))
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out), applied


def _string_end(text: str, start: int, quote: str) -> int:
    """Index just past the closing quote of the string opening at `start` (or the text's end)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


def _to_action(
    value: dict[str, Any], before: str, repairs: tuple[str, ...]
) -> ParsedAction | ParseFailure | None:
    action_key = next((k for k in _ACTION_KEYS if isinstance(value.get(k), str)), None)
    if action_key is None:
        return None  # not an action object (maybe an example value): keep looking
    action = value[action_key].strip()
    if not action:
        return ParseFailure('"action" is empty')
    if action_key != "action":
        repairs = (*repairs, f"key {action_key!r}")
    raw_input = next((value[k] for k in _INPUT_KEYS if k in value), None)
    action_input = _as_input(action, raw_input)
    if isinstance(action_input, ParseFailure):
        return action_input
    thought = value.get("thought")
    if not isinstance(thought, str):
        thought = " ".join(before.split())[-2000:]
    return ParsedAction(action, action_input, thought.strip(), tuple(dict.fromkeys(repairs)))


def _as_input(action: str, raw: Any) -> dict[str, Any] | ParseFailure:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        value, _ = _load(raw) if raw.strip().startswith("{") else (None, "")
        if isinstance(value, dict):
            return value  # the input was sent as a JSON string, as some prompts teach
        if action == FINAL_ACTION:
            return {"answer": raw}
    return ParseFailure(
        f'"action_input" for {action!r} must be a JSON object, got {type(raw).__name__}'
    )
