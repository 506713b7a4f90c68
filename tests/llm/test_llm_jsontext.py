"""The JSON-in-text fallback protocol: tool rendering and robust action parsing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repopilot.llm.base import ToolCall, ToolSpec
from repopilot.llm.jsontext import (
    FINAL_ACTION,
    ParsedAction,
    ParseFailure,
    observation_message,
    parse_action,
    render_tools,
)

pytestmark = pytest.mark.unit

READ = {"path": "src/app.py", "start_line": 10}


def ok(text: str) -> ParsedAction:
    result = parse_action(text)
    assert isinstance(result, ParsedAction), result
    return result


def failed(text: str) -> ParseFailure:
    result = parse_action(text)
    assert isinstance(result, ParseFailure), result
    return result


def test_plain_object():
    action = ok(
        '{"thought": "look at the file", "action": "read_file", "action_input": '
        '{"path": "src/app.py", "start_line": 10}}'
    )
    assert (action.action, action.action_input, action.thought) == (
        "read_file",
        READ,
        "look at the file",
    )
    assert action.repairs == ()
    assert not action.is_final


def test_code_fence_with_prose_around():
    text = (
        "I should read the file first.\n\n```json\n"
        '{"thought": "t", "action": "read_file", "action_input": {"path": "src/app.py", "start_line": 10}}\n'
        "```\nThen I will know more."
    )
    action = ok(text)
    assert action.action_input == READ
    assert "code fence" in action.repairs


def test_unterminated_fence():
    action = ok('```json\n{"action": "list_files", "action_input": {}}\n')
    assert action.action == "list_files"


def test_prose_around_bare_json_becomes_the_thought_when_none_given():
    action = ok(
        'The test imports a missing module. {"action": "search_code", "action_input": {"pattern": "import foo"}} done'
    )
    assert action.action_input == {"pattern": "import foo"}
    assert action.thought == "The test imports a missing module."
    assert "prose" in action.repairs


def test_trailing_commas():
    action = ok(
        '{"action": "read_file", "action_input": {"path": "src/app.py", "start_line": 10,},}'
    )
    assert action.action_input == READ
    assert "trailing comma" in action.repairs


def test_commas_and_quotes_inside_strings_are_left_alone():
    action = ok(
        """{"action": "search_code", "action_input": {"pattern": "a, }", "path": "it's/here"},}"""
    )
    assert action.action_input == {"pattern": "a, }", "path": "it's/here"}


def test_single_quotes_and_python_literals():
    action = ok(
        "{'action': 'read_file', 'action_input': {'path': 'say \"hi\".py', 'recursive': True, 'x': None}}"
    )
    assert action.action_input == {"path": 'say "hi".py', "recursive": True, "x": None}
    assert {"single quotes", "python literal"} <= set(action.repairs)


def test_raw_newlines_inside_strings_are_accepted():
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"
    text = '{"action": "propose_fix", "action_input": {"diff": "' + diff + '", "confidence": 0.8}}'
    assert ok(text).action_input["diff"] == diff


def test_action_input_given_as_a_json_string():
    action = ok(
        '{"action": "read_file", "action_input": "{\\"path\\": \\"src/app.py\\", \\"start_line\\": 10}"}'
    )
    assert action.action_input == READ


def test_alternative_key_names():
    action = ok('{"name": "read_file", "arguments": {"path": "src/app.py", "start_line": 10}}')
    assert (action.action, action.action_input) == ("read_file", READ)
    assert "key 'name'" in action.repairs


def test_missing_action_input_is_empty():
    assert ok('{"action": "list_files"}').action_input == {}


def test_final_answer_with_a_string_input():
    action = ok(
        f'{{"thought": "done", "action": "{FINAL_ACTION}", "action_input": "The lockfile is stale."}}'
    )
    assert action.is_final
    assert action.action_input == {"answer": "The lockfile is stale."}


def test_an_example_object_without_action_is_skipped():
    text = (
        'The config is {"retries": 3}. So: {"action": "read_file", "action_input": {"path": "a"}}'
    )
    assert ok(text).action_input == {"path": "a"}


def test_a_stray_open_brace_in_prose_does_not_hide_the_action():
    text = (
        'The parser chokes on `{` here.\n{"action": "get_log", "action_input": {"start_line": 5}}'
    )
    assert ok(text).action_input == {"start_line": 5}


def test_first_of_several_actions_wins():
    text = '{"action": "a", "action_input": {}}\n{"action": "b", "action_input": {}}'
    assert ok(text).action == "a"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("I think the build failed because of a flaky test.", "no JSON object"),
        ('{"thought": "hmm", "input": {}}', '"action"'),
        ('{"action": "read_file", "action_input": {"path": "a"', "not valid"),
        ('{"action": "read_file", "action_input": [1, 2]}', "must be a JSON object"),
        ('{"action": "read_file", "action_input": "src/app.py"}', "must be a JSON object"),
        ('{"action": "  ", "action_input": {}}', "empty"),
    ],
)
def test_failures_are_values_with_reasons(text, reason):
    failure = failed(text)
    assert reason in failure.reason
    observation = failure.observation()
    assert failure.reason in observation
    assert '"action"' in observation  # tells the model the expected format


def test_to_tool_call_joins_the_native_path():
    action = ok('{"action": "read_file", "action_input": {"path": "a"}}')
    assert action.to_tool_call("text_1") == ToolCall(
        id="text_1", name="read_file", arguments={"path": "a"}
    )


def test_render_tools_lists_each_tool_with_its_schema():
    tools = [
        ToolSpec(
            name="read_file",
            description="Read a file\n   of the checkout.",
            parameters={
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        ),
        ToolSpec(name="list_files", description="List files.", parameters={"type": "object"}),
    ]
    text = render_tools(tools)
    assert "- read_file: Read a file of the checkout." in text
    assert "- list_files: List files." in text
    assert '"required":["path"]' in text
    assert FINAL_ACTION in text
    # the example format in the instructions parses as an action itself
    example = next(line for line in text.splitlines() if '"action": "<tool name>"' in line)
    assert isinstance(parse_action(example.replace("{<arguments>}", "{}")), ParsedAction)


def test_observation_message_is_a_user_turn():
    message = observation_message("read_file", "1: import os")
    assert message.role == "user"
    assert message.content.startswith("Observation from read_file:")


def test_huge_reply_with_many_braces_stays_fast():
    import time

    text = "{" * 50_000 + "'" + "x" * 100_000
    started = time.monotonic()
    assert isinstance(parse_action(text), ParseFailure)
    assert time.monotonic() - started < 2.0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(
    action=st.text(min_size=1, max_size=20).filter(lambda s: s.strip() == s and s),
    action_input=st.dictionaries(st.text(max_size=10), json_values, max_size=4),
    before=st.text(alphabet=st.characters(blacklist_characters="{}`"), max_size=40),
    after=st.text(alphabet=st.characters(blacklist_characters="{}`"), max_size=40),
    fenced=st.booleans(),
)
def test_round_trip_through_prose(action, action_input, before, after, fenced):
    body = json.dumps({"thought": "t", "action": action, "action_input": action_input})
    if fenced:
        body = f"```json\n{body}\n```"
    result = parse_action(f"{before}\n{body}\n{after}")
    assert isinstance(result, ParsedAction)
    assert (result.action, result.action_input) == (action, action_input)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_never_raises(text):
    assert isinstance(parse_action(text), ParsedAction | ParseFailure)


def test_deep_nesting_is_a_failure_not_a_crash():
    assert "nested too deeply" in failed('{"a":' * 30_000).reason


def test_render_tools_shows_the_callers_final_answer_shape():
    text = render_tools([], final_input='{"diagnosis": "...", "confidence": 0.5}')
    line = next(line for line in text.splitlines() if FINAL_ACTION in line and "diagnosis" in line)
    action = parse_action(line)
    assert isinstance(action, ParsedAction) and action.is_final
    assert action.action_input == {"diagnosis": "...", "confidence": 0.5}
