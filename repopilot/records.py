"""Typed records passed between stages. Nothing here does I/O.

Every stage takes and returns these; dicts only appear at the wire (JSON out, YAML in).
The closed sets of values and the two records `classify` builds (Evidence, Verdict) are here, as
frozen dataclasses: importing pydantic costs more start-up time than the whole classification of
a small log (issue 11). The records of a triage run that pydantic validates from JSON (proposals,
rejections, origins, results, trace steps) live in repopilot/run_records.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, get_args

if TYPE_CHECKING:
    from typing import Self

AssignedCategory = Literal[
    "test_failure",
    "compile_error",
    "lint_format",
    "type_check",
    "dependency_resolution",
    "import_error",
    "network",
    "timeout_cancelled",
    "runner_infra",
    "oom_disk",
    "permission_secret",
    "docker_build",
    "crash_segfault",
    "config_error",
    "other",
]
"""A category a pattern or the model may assign: the taxonomy without `unknown`/`no_failure`."""
CATEGORIES: tuple[str, ...] = get_args(AssignedCategory)
"""The assignable categories, in docs/CONTRACTS.md's order (the prompt, the answer schema, lint)."""

Undecided = Literal["unknown", "no_failure"]
"""A failure nothing decides, or no failure at all: never assigned by a pattern or the model."""
Category = AssignedCategory | Undecided
"""The closed category taxonomy of docs/CONTRACTS.md: every verdict's category is one of these."""
TAXONOMY: tuple[str, ...] = CATEGORIES + get_args(Undecided)
Kind = Literal["code", "infra", "flaky"]
DecidedBy = Literal["pattern", "llm", "none"]
EscalateMode = Literal["auto", "fixable"]
"""Which verdicts may go to the LLM (docs/CONTRACTS.md Contract 4): auto = unknown/ambiguous only."""
ESCALATE_MODES: tuple[str, ...] = get_args(EscalateMode)

Origin = Literal["this_pr", "base_branch", "flaky", "infra", "undetermined"]
"""Whether a failed job's failure is the PR's own (issue 14; decided in repopilot/origin/decide.py)."""
ORIGINS: tuple[str, ...] = get_args(Origin)

# Infra-like categories never escalate to the LLM and never get a diff (docs/CONTRACTS.md Contract 4).
INFRA_CATEGORIES: frozenset[str] = frozenset(
    {"network", "timeout_cancelled", "runner_infra", "oom_disk", "permission_secret"}
)


RejectReason = Literal[
    "path-escape",
    "protected-path",
    "symlink",
    "submodule",
    "binary",
    "too-large",
    "parse-error",
    "does-not-apply",
    "deceptive",
    "not-validated",  # the run had no validator: a diff is never offered unchecked
    "not-recorded",  # a replay met a proposal its trace holds no verdict for
]
"""Why a diff was refused (docs/CONTRACTS.md "Details the contracts fix", docs/THREAT_MODEL.md §5)."""
REJECT_REASONS: tuple[str, ...] = get_args(RejectReason)

StepType = Literal["classify", "llm_call", "tool_call", "tool_result", "error", "decision"]


class _Frozen:
    """What the pydantic models these records replaced offered their users: `model_copy`, and
    pydantic's `extra="forbid"` where a pydantic model holds one (a RunResult read back)."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """A copy with `update`'s fields replaced, unvalidated (as pydantic's `model_copy`)."""
        out = object.__new__(type(self))
        fields = self.__dataclass_fields__  # type: ignore[attr-defined]
        for name, value in {**{f: getattr(self, f) for f in fields}, **(update or {})}.items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            object.__setattr__(out, name, value)
        return out


@dataclass(frozen=True, slots=True)
class Evidence(_Frozen):
    """One physical line of the input: 1-based number as in Contract 1, text normalized."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Verdict(_Frozen):
    """The classification of one job log (Contract 1 RESULT, plus what later stages need)."""

    source: str
    category: Category
    confidence: float = 0.0
    decided_by: DecidedBy = "none"
    pattern_id: str | None = None
    title: str = ""
    hint: str = ""
    evidence: tuple[Evidence, ...] = ()
    captures: dict[str, str] = field(default_factory=dict)
    # Not in Contract 1 JSON, used downstream:
    kind: Kind | None = None
    ambiguous: bool = False
    step: str | None = None
    context: tuple[Evidence, ...] = ()
    job: str | None = None
    step_lines: tuple[int, int] | None = None  # first and last line of the failing step
    timeouts: tuple[str, ...] = ()  # pattern ids that hit the regex timeout on this log
    # evidence[0] is a failing test's assertion/error message and evidence[1] the test's line
    assertion_first: bool = False
    # a repository's learned pattern decided (issue 28): its `source:` ("learned from <log>:<line>")
    learned_from: str | None = None

    def __post_init__(self) -> None:
        # What the pydantic model did with its input: an int confidence became a float (so the
        # JSON says 1.0, not 1), sequences became tuples, and the captures were its own copy.
        set_ = object.__setattr__
        set_(self, "confidence", float(self.confidence))
        set_(self, "evidence", tuple(self.evidence))
        set_(self, "context", tuple(self.context))
        set_(self, "timeouts", tuple(self.timeouts))
        set_(self, "captures", dict(self.captures))
        if self.step_lines is not None:
            set_(self, "step_lines", tuple(self.step_lines))

    def contract(self) -> dict[str, Any]:
        """The exact Contract 1 RESULT object."""
        return {
            "source": self.source,
            "category": self.category,
            "confidence": round(self.confidence, 3),
            "decided_by": self.decided_by,
            "pattern_id": self.pattern_id,
            "title": self.title,
            "hint": self.hint,
            "evidence": [{"line": e.line, "text": e.text} for e in self.evidence],
            "captures": dict(self.captures),
            "job": self.job,
            "step": self.step,
        }

    @property
    def failed(self) -> bool:
        return self.category != "no_failure"


BASELINE_NOTE = "Compared with the base log: lines it also prints were not taken as the cause."
"""What a verdict's hint says when a passing base log demoted lines (engine/verdict/baseline.py);
the comment drops it where it names the green run itself."""
