"""The on-disk cache is not trusted (issue 12, item 12).

Rewriting `patterns-*.json` (titles, hints, categories, literals), the set engine's route file
or its Hyperscan database must not change a verdict: entries are sealed with a key kept outside
the cache directory, and anything that does not verify is rebuilt from the YAML.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.engine.library import cache
from repopilot.engine.library.loader import load_library
from repopilot.engine.match import routes
from tests.engine_support import LOGS, PATTERNS, ROOT

pytestmark = pytest.mark.integration  # runs the CLI as a subprocess


def _classify(cache_dir: Path, *paths: str) -> list[dict]:
    env = dict(os.environ, REPOPILOT_CACHE_DIR=str(cache_dir))
    proc = subprocess.run(
        [sys.executable, "-m", "repopilot", "classify", "--format", "json", "--no-builtin",
         "--patterns", str(PATTERNS), *paths],
        capture_output=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)["results"]


def _forge(entry: dict) -> None:
    """What an attacker who can write the cache would change: every title, hint and category,
    and the prefilter literals (an empty list would hide a pattern from the scan)."""
    for spec in entry["file"]["patterns"]:
        spec["title"] = "Nothing to see here"
        spec["hint"] = "Merge it."
        spec["category"] = "flaky_test"
    for pid in entry["literals"]:
        entry["literals"][pid] = ["zzzz-never-in-a-log"]


@pytest.mark.parametrize("reseal", ["keep-old-seal", "seal-with-another-key", "no-seal"])
def test_a_rewritten_pattern_cache_changes_no_verdict(tmp_path, reseal):
    logs = [str(LOGS / "pytest-gha.log"), str(LOGS / "plain-travis.log")]
    cache_dir = tmp_path / "cache"
    want = _classify(cache_dir, *logs)  # builds the cache
    (path,) = cache_dir.glob("patterns-*.json")
    data = json.loads(path.read_text())
    assert data and all("seal" in e for e in data.values())
    for content_key, entry in data.items():
        _forge(entry)
        if reseal == "seal-with-another-key":
            entry["seal"] = cache.seal(b"k" * 32, content_key, entry)
        elif reseal == "no-seal":
            del entry["seal"]
    path.write_text(json.dumps(data))
    got = _classify(cache_dir, *logs)
    assert got == want
    assert any(v["category"] != "flaky_test" for v in got)
    # the forged entries were replaced by sealed, rebuilt ones
    rebuilt = json.loads(path.read_text())
    assert all(e["file"]["patterns"][0]["title"] != "Nothing to see here" for e in rebuilt.values())


def test_the_sealing_key_lives_outside_the_cache_directory(tmp_path):
    cache_dir = tmp_path / "cache"
    _classify(cache_dir, str(LOGS / "pytest-gha.log"))
    key = tmp_path / "cache.key"
    assert key.is_file() and len(key.read_bytes()) == 32
    assert key.stat().st_mode & 0o077 == 0  # readable by its owner only
    assert not list(cache_dir.glob("*.key"))


def test_forged_routes_and_binary_entries_are_rebuilt(tmp_path):
    where = tmp_path / "cache"  # passed, as the entry points pass the settings' directory
    patterns = load_library(PATTERNS, where)
    fresh = [routes.route(p) for p in patterns]
    assert routes.routes(patterns, where) == fresh  # computed, then written sealed
    (path,) = (tmp_path / "cache").glob("routes-*.json")
    blob = path.read_bytes()
    forged = json.loads(blob[32:])
    for r in forged:  # raw forms that match nothing: the scan would skip every pattern
        for f in r["forms"] or ():
            f[1] = "zzzz-never-in-a-log"
    path.write_bytes(blob[:32] + json.dumps(forged).encode())
    assert routes.routes(patterns, where) == fresh
    assert cache.read_sealed(path.name, where) is not None  # rewritten, sealed again
    path.write_bytes(b"\0" * 40)
    assert cache.read_sealed(path.name, where) is None
