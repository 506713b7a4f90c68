"""Where a learned pattern goes in a pattern directory (engine/learn/placement.py): one pattern
per id, the contradicted learned ones out, nothing else touched."""

from __future__ import annotations

import json

import pytest
import yaml

from repopilot.engine.learn.placement import place

pytestmark = pytest.mark.unit


def spec(pid: str, source: str = "learned from a.log:3", regex: str = "^zork failed$") -> dict:
    return {"id": pid, "category": "other", "source": source, "regex": regex, "title": pid}


def text(*specs: dict) -> str:
    return yaml.safe_dump({"ecosystem": "learned", "patterns": list(specs)}, sort_keys=False)


def ids(t: str | None) -> list[str]:
    assert t is not None
    return [p["id"] for p in yaml.safe_load(t)["patterns"]]


NEW = text(spec("learned.x", regex="^zork (?P<what>\\S+) failed$"))


def test_a_new_id_gets_its_own_file():
    got = place({"other.yaml": text(spec("learned.y"))}, NEW, "learned.x")
    assert got.changes == {"learned.x.yaml": NEW} and got.target == "learned.x.yaml"


def test_a_file_of_that_pattern_alone_is_rewritten_as_rendered():
    got = place({"mine.yml": text(spec("learned.x"))}, NEW, "learned.x")
    assert got.changes == {"mine.yml": NEW} and got.removed == ()


def test_in_a_shared_file_only_its_entry_changes_and_a_second_entry_goes():
    files = {
        "a.yaml": text(spec("hand.made", source="https://tool.example/docs"), spec("learned.x")),
        "b.yaml": text(spec("learned.x"), spec("learned.z")),
    }
    got = place(files, NEW, "learned.x")
    assert got.target == "a.yaml"
    assert ids(got.changes["a.yaml"]) == ["hand.made", "learned.x"]
    assert "(?P<what>" in yaml.safe_load(got.changes["a.yaml"])["patterns"][1]["regex"]
    assert ids(got.changes["b.yaml"]) == ["learned.z"]
    assert got.removed == (("learned.x", "b.yaml"),)


def test_retired_learned_patterns_leave_their_file_or_the_directory():
    files = {
        "old.yaml": text(spec("learned.old")),
        "mix.yaml": text(spec("learned.older"), spec("learned.keep")),
        "hand.yaml": text(spec("hand.made", source="https://tool.example/docs")),
    }
    got = place(files, NEW, "learned.x", ("learned.old", "learned.older", "hand.made"))
    assert got.changes["old.yaml"] is None
    assert ids(got.changes["mix.yaml"]) == ["learned.keep"]
    assert "hand.yaml" not in got.changes  # never a pattern that was not learned
    assert got.changes["learned.x.yaml"] == NEW
    assert sorted(got.removed) == [("learned.old", "old.yaml"), ("learned.older", "mix.yaml")]


def test_a_name_taken_by_another_file_and_a_broken_file_are_left_alone():
    files = {"learned.x.yaml": text(spec("learned.y")), "broken.yaml": "patterns: [\n"}
    got = place(files, NEW, "learned.x")
    assert got.changes == {"learned.x-2.yaml": NEW}


def test_a_json_file_stays_json():
    was = json.dumps({"ecosystem": "learned", "patterns": [spec("learned.x"), spec("learned.y")]})
    got = place({"l.yaml": was}, NEW, "learned.x")
    out = got.changes["l.yaml"]
    assert out is not None and out.startswith("{")
    assert [p["id"] for p in json.loads(out)["patterns"]] == ["learned.x", "learned.y"]
