"""Issue 22, item 6: in the example workflow only events that act join a PR's concurrency group.

GitHub keeps one pending run per group and cancels it when another run of the group queues, so a
comment that shares the group of a maintainer's pending `/repopilot apply` cancels it. The test
evaluates the example's `concurrency.group` expression, as parsed from the YAML, for each kind of
event with a small evaluator of GitHub's expression language (the operators and functions the
example uses, with GitHub's rules: `&&`/`||` return an operand, string comparison ignores case,
a missing property is null)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit
EXAMPLE = REPO_ROOT / "examples" / "workflows" / "repopilot.yml"
_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+)|(?P<op>&&|\|\||==|!=|[()\[\],.!])"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))"
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = _TOKEN.match(text, pos)
        assert m is not None, f"cannot read the expression at {text[pos : pos + 30]!r}"
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _truthy(v: Any) -> bool:
    return v not in (None, False, 0, "") and v == v


def _text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return a == b


_FUNCTIONS = {
    "contains": lambda hay, needle: (
        any(_same(x, needle) for x in hay)
        if isinstance(hay, list)
        else _text(needle).lower() in _text(hay).lower()
    ),
    "startsWith": lambda s, p: _text(s).lower().startswith(_text(p).lower()),
    "fromJSON": json.loads,
    "format": lambda f, *args: re.sub(r"\{(\d+)\}", lambda m: _text(args[int(m[1])]), f),
}


class _Expr:
    def __init__(self, text: str, context: dict[str, Any]) -> None:
        self.toks, self.i, self.ctx = _tokens(text), 0, context

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[str, str]:
        tok = self.toks[self.i]
        assert want is None or tok[1] == want, (want, tok)
        self.i += 1
        return tok

    def parse(self) -> Any:
        value = self.or_()
        assert self.i == len(self.toks), self.toks[self.i :]
        return value

    def or_(self) -> Any:
        left = self.and_()
        while self.peek() == "||":
            self.take()
            right = self.and_()
            left = left if _truthy(left) else right
        return left

    def and_(self) -> Any:
        left = self.eq()
        while self.peek() == "&&":
            self.take()
            right = self.eq()
            left = right if _truthy(left) else left
        return left

    def eq(self) -> Any:
        left = self.unary()
        while self.peek() in ("==", "!="):
            op = self.take()[1]
            right = self.unary()
            left = _same(left, right) if op == "==" else not _same(left, right)
        return left

    def unary(self) -> Any:
        if self.peek() == "!":
            self.take()
            return not _truthy(self.unary())
        return self.postfix()

    def postfix(self) -> Any:
        kind, tok = self.take()
        if tok == "(":
            value = self.or_()
            self.take(")")
        elif kind == "str":
            value = tok[1:-1].replace("''", "'")
        elif kind == "num":
            value = int(tok)
        elif kind == "name" and self.peek() == "(":
            self.take("(")
            args = []
            while self.peek() != ")":
                args.append(self.or_())
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
            value = _FUNCTIONS[tok](*args)
        else:
            value = {"true": True, "false": False, "null": None}.get(tok, self.ctx.get(tok))
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                key: Any = self.take()[1]
            else:
                key = self.or_()
                self.take("]")
            if isinstance(value, dict):
                value = value.get(key)
            elif isinstance(value, list) and isinstance(key, int):
                value = value[key] if key < len(value) else None
            else:
                value = None
        return value


def group(event_name: str, event: dict, run_id: int) -> str:
    """The example's concurrency group for one event, as GitHub would compute it."""
    template = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))["concurrency"]["group"]
    context = {"github": {"event_name": event_name, "event": event, "run_id": run_id}}
    return re.sub(
        r"\$\{\{(.*?)\}\}", lambda m: _text(_Expr(m[1], context).parse()), template, flags=re.S
    )


def _comment(body: str, association: str = "MEMBER", on_pr: bool = True) -> dict:
    issue: dict[str, Any] = {"number": 7}
    if on_pr:
        issue["pull_request"] = {"url": "https://api.github.com/repos/o/r/pulls/7"}
    return {
        "action": "created",
        "issue": issue,
        "comment": {"body": body, "author_association": association},
    }


def _run(conclusion: str, fork: bool = False) -> dict:
    run = {
        "conclusion": conclusion,
        "head_branch": "feature",
        "head_repository": {"full_name": "forker/r" if fork else "o/r"},
        "pull_requests": [] if fork else [{"number": 7}],
    }
    return {"action": "completed", "workflow_run": run}


def test_a_maintainers_command_and_the_pr_runs_share_one_group():
    apply = group("issue_comment", _comment("/repopilot apply abc123"), 101)
    assert apply == "repopilot-7"
    assert group("workflow_run", _run("failure"), 102) == apply
    assert group("workflow_run", _run("timed_out"), 103) == apply
    assert group("workflow_run", _run("success"), 104) == apply
    for who in ("OWNER", "COLLABORATOR"):
        assert group("issue_comment", _comment("/repopilot reject abc123", who), 105) == apply
    assert group("workflow_run", _run("failure", fork=True), 106) == "repopilot-forker/r:feature"


@pytest.mark.parametrize(
    "event_name, event",
    [
        ("issue_comment", _comment("LGTM, thanks!")),
        ("issue_comment", _comment("please /repopilot apply abc123")),
        ("issue_comment", _comment("/repopilot apply abc123", "NONE")),
        ("issue_comment", _comment("/repopilot apply abc123", "CONTRIBUTOR")),
        ("issue_comment", _comment("/repopilot apply abc123", "FIRST_TIME_CONTRIBUTOR")),
        ("issue_comment", _comment("/repopilot apply abc123", on_pr=False)),
        ("workflow_run", _run("cancelled")),
        ("workflow_run", _run("skipped")),
        ("workflow_run", _run("action_required")),
    ],
)
def test_an_event_that_does_not_act_cancels_nothing(event_name, event):
    # a group of its own: it can neither cancel a pending apply or post nor be cancelled
    assert group(event_name, event, 4242) == "repopilot-idle-4242"


def test_the_groups_never_cancel_a_run_in_progress():
    doc = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert doc["concurrency"]["cancel-in-progress"] is False
    for job in doc["jobs"].values():
        assert "concurrency" not in job  # one group, at the top, as evaluated above
