"""What the repository's memory keeps (issue 28, docs/MEMORY.md): how one write merges a run's
records into `seen.json` and bounds the file, and how many records a reader uses. Pure: the
contents API side is github/seen_store.py."""

from __future__ import annotations

import json
from collections.abc import Sequence

from repopilot.run_records import SeenRecord

READ = 200  # records a reader uses, the newest
KEEP = 1000  # records a write keeps, the newest
# records one pull request (or one branch's runs of no PR) keeps, its newest: a fork PR pushed
# again and again (each run adds at most 20, action/memory_records.py) cannot push every other
# PR's and the default branch's records out of the READ newest
PER_PR = 40
MAX_BYTES = 900_000  # the contents API serves base64 content up to 1 MB


def dump(records: Sequence[SeenRecord]) -> str:
    """The file's text: one record per line, the newest KEEP, at most MAX_BYTES."""
    lines = [json.dumps(r.model_dump(mode="json"), ensure_ascii=False) for r in records[-KEEP:]]
    size = sum(len(line.encode()) + 2 for line in lines) + 40
    while lines and size > MAX_BYTES:  # oldest first out
        size -= len(lines.pop(0).encode()) + 2
    return '{"version": 1, "records": [\n' + ",\n".join(lines) + "\n]}\n"


def merge(base: Sequence[SeenRecord], new: Sequence[SeenRecord]) -> list[SeenRecord]:
    """`base` with `new` in: a record with the key of a new one is replaced (moved last); a
    pull request keeps its newest PER_PR records, and so does each branch for runs of no PR
    that are not the default branch's own (a `pull_request_target` or `issue_comment` run on
    the default branch, which a fork or any commenter starts)."""
    keys = {r.key for r in new}
    merged = [r for r in base if r.key not in keys] + list(new)
    left: dict[int | str, int] = {}
    kept: list[SeenRecord] = []
    for r in reversed(merged):  # newest first
        if not r.on_default:
            who = r.pr if r.pr is not None else f"branch:{r.branch}"
            left[who] = left.get(who, PER_PR) - 1
            if left[who] < 0:
                continue
        kept.append(r)
    return kept[::-1]
