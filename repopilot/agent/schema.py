"""The agent's tool arguments (docs/CONTRACTS.md Contract 4): pydantic models, JSON-schema specs, checks.

Arguments are models with extra='forbid', so an invented or missing parameter becomes an
observation naming it (`parse_arguments`) instead of a crash or a silent default.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.agent.limits import Limits
from repopilot.llm.base import ToolCall, ToolSpec
from repopilot.records import CATEGORIES
from repopilot.safety.jsonbound import MAX_JSON_DEPTH, depth_of


class ToolError(Exception):
    """A tool could not do what was asked (not found, refused, ...); the message goes to the model."""


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReadFile(_Args):
    """Read a file of the checkout, with line numbers. Large files: give start_line/end_line."""

    path: str
    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)


class ListFiles(_Args):
    """List one directory of the checkout (default: its root). `name/` is a directory."""

    path: str | None = None


class SearchCode(_Args):
    """Search the checkout for a regular expression (or literal text if it is not a valid regex)."""

    pattern: str = Field(min_length=1, max_length=500)
    path: str | None = None


class GitLog(_Args):
    """Recent commits of the checkout (optionally touching one path)."""

    path: str | None = None
    max_count: int | None = Field(default=None, ge=1, le=50)


class GitDiff(_Args):
    """What the pull request changed against its base branch (optionally one path)."""

    path: str | None = None


class GetLog(_Args):
    """Lines of the failing job's log (redacted), numbered as in the original file."""

    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)


class ProposeFix(_Args):
    """Finish: give the diagnosis, its category, your confidence, and optionally a unified diff."""

    diagnosis: str = Field(
        min_length=1, max_length=Limits.max_diagnosis_chars, description="what failed and why"
    )
    category: str = Field(json_schema_extra={"enum": list(CATEGORIES)})
    diff: str | None = Field(
        default=None,
        description="unified diff against the checkout; omit if no code change fixes it",
    )
    confidence: float = Field(ge=0.0, le=1.0)


ARGUMENTS: dict[str, type[_Args]] = {
    "read_file": ReadFile,
    "list_files": ListFiles,
    "search_code": SearchCode,
    "git_log": GitLog,
    "git_diff": GitDiff,
    "get_log": GetLog,
    "propose_fix": ProposeFix,
}
TERMINAL = "propose_fix"


def tool_specs() -> list[ToolSpec]:
    """The JSON-schema function tools offered to the model, in a stable order."""
    return list(_specs())


@functools.cache
def _specs() -> tuple[ToolSpec, ...]:  # schema generation costs ~10 ms; the specs never change
    specs = []
    for name, model in ARGUMENTS.items():
        schema = model.model_json_schema()
        props = {k: _plain(v) for k, v in schema["properties"].items()}
        params: dict[str, Any] = {"type": "object", "properties": props}
        if schema.get("required"):
            params["required"] = schema["required"]
        params["additionalProperties"] = False
        specs.append(ToolSpec(name=name, description=model.__doc__ or name, parameters=params))
    return tuple(specs)


def _plain(prop: dict[str, Any]) -> dict[str, Any]:
    """A property schema small models read easily: no titles, defaults or `anyOf [T, null]`."""
    options = [o for o in prop.get("anyOf", ()) if o.get("type") != "null"]
    base = dict(options[0]) if len(options) == 1 else dict(prop)
    if "description" in prop:
        base["description"] = prop["description"]
    return {k: v for k, v in base.items() if k not in ("title", "default", "anyOf")}


def parse_arguments(name: str, arguments: dict[str, Any]) -> _Args:
    """Validated arguments of tool `name`; ToolError naming unknown, missing or bad fields."""
    model = ARGUMENTS[name]
    # An adapter may hand over a value its SDK parsed: bound it before pydantic walks it.
    if depth_of(arguments) > MAX_JSON_DEPTH:
        raise ToolError(
            f"{name}: arguments are nested too deeply (more than {MAX_JSON_DEPTH} levels)"
        )
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or "arguments"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown parameter '{field}'")
            elif err["type"] == "missing":
                problems.append(f"missing parameter '{field}'")
            else:
                problems.append(f"parameter '{field}': {err['msg']}")
        allowed = ", ".join(model.model_fields)
        raise ToolError(f"{name}: {'; '.join(problems)} (parameters: {allowed})") from None


def call_arguments(call: ToolCall) -> _Args:
    """The validated arguments of a tool call; ToolError (the model's mistake, in words it can
    act on) for unparsable JSON, an unknown tool or bad parameters."""
    if call.arguments_error:
        raise ToolError(f"arguments of {call.name} are not valid JSON: {call.arguments_error}")
    if call.name not in ARGUMENTS:
        raise ToolError(f"unknown tool {call.name!r}; the tools are: {', '.join(ARGUMENTS)}")
    return parse_arguments(call.name, call.arguments)
