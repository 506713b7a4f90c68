"""Property: the command parser accepts exactly `/repopilot apply <id>` and `/repopilot reject <id>`
(id `[a-z0-9-]{6,40}`, only ASCII whitespace around it) and nothing else.

tests/comment/test_comment_marker.py already proves the core (exact commands accepted, whatever is
accepted is exactly one command, a few wrappers refused). Added here: the Action's event edge
(`github.events.parse_command`) agrees with the parser on every input; any single foreign character
anywhere in the command spoils it; more Markdown wrappers; ids of every length; and the indented
code block, which the parser still accepts (xfail).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repopilot.comment.command import parse_command
from repopilot.github.events import parse_command as edge_parse

pytestmark = pytest.mark.unit

IDS = st.from_regex(r"[a-z0-9-]{6,40}", fullmatch=True)
VERBS = st.sampled_from(["apply", "reject"])
ASCII_WS = st.text(alphabet=" \t\r\n", max_size=4)
# At most three leading spaces on the command's line: four, or a tab, make a CommonMark indented
# code block (see the xfail test below).
LEADING = st.text(alphabet="\r\n", max_size=3).map(lambda s: s + "   "[: len(s)])
CANONICAL = re.compile(r"/repopilot (apply|reject) ([a-z0-9-]{6,40})")


def both(body: str):
    a, b = parse_command(body), edge_parse(body)
    assert (a is None) == (b is None) and (a is None or tuple(a) == tuple(b)), (body, a, b)
    return a


@settings(max_examples=1000)
@given(
    body=st.text(max_size=80)
    | st.builds(lambda b, v, p, t: f"{b}/repopilot {v} {p}{t}", LEADING, VERBS, IDS, ASCII_WS)
    | st.builds(lambda v, p, t: f"/repopilot {v} {p}{t}", VERBS, IDS, st.text(max_size=8))
)
def test_the_action_edge_agrees_with_the_parser(body):
    cmd = both(body)
    if cmd is not None:
        assert CANONICAL.fullmatch(body.strip(" \t\r\n")), repr(body)


WRAPPERS = [  # those not already in tests/comment/test_comment_marker.py
    "~~~\n{}\n~~~",
    "<!-- {} -->",
    "**{}**",
    "{}\n{}",
    "\u200b{}",
    "{}\u00a0",
    "\ufeff{}",
    "- {}",
    "1. {}",
    "<details>{}</details>",
]


@settings(max_examples=600)
@given(verb=VERBS, pid=IDS, wrap=st.sampled_from(WRAPPERS))
def test_quoted_fenced_or_decorated_commands_are_not_commands(verb, pid, wrap):
    assert both(wrap.format(*[f"/repopilot {verb} {pid}"] * wrap.count("{}"))) is None


def _mutations(text: str):
    core = text.index(" ") + 1
    yield text.upper()
    yield text.replace("/repopilot", "/RepoPilot")
    yield text.replace(" ", "  ", 1)
    yield text.replace(" ", "\t", 1)
    yield text.replace(" ", "\u00a0", 1)
    yield text.replace("/", "\u2215", 1)  # a look-alike slash
    yield text.replace("/", "", 1)
    yield text[:core] + text[core:].replace("apply", "app1y").replace("reject", "rejekt")
    yield text + "!"
    yield text + " x"


@settings(max_examples=300)
@given(verb=VERBS, pid=IDS, extra=st.sampled_from("_.A:/@#`'\"\u0430\u200d"), at=st.integers(0, 60))
def test_any_other_character_in_the_command_spoils_it(verb, pid, extra, at):
    text = f"/repopilot {verb} {pid}"
    for bad in _mutations(text):
        assert both(bad) is None, repr(bad)
    pos = at % (len(text) + 1)
    spoiled = text[:pos] + extra + text[pos:]
    assert both(spoiled) is None, repr(spoiled)


@settings(max_examples=200)
@given(
    verb=VERBS,
    pid=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=0, max_size=60),
)
def test_id_length_is_enforced(verb, pid):
    cmd = both(f"/repopilot {verb} {pid}")
    assert (cmd is not None) == (6 <= len(pid) <= 40)


@pytest.mark.parametrize("indent", ["    ", "\t", "\n\n    "], ids=["4-spaces", "tab", "blank-4"])
def test_a_command_in_an_indented_code_block_is_not_a_command(indent):
    assert both(f"{indent}/repopilot apply fix-0001") is None
