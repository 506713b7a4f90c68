"""Start-up of `repopilot classify` (issue 11): what a run on a known library imports, and the
two things that made that cheap keeping every contract.

- `classify` with the pattern cache warm imports neither pydantic nor yaml, nor any SDK
  (openai, ollama, PyGithub); the first run, which validates the YAML, does import them, so the
  check below is of the warm path and fails if an eager import comes back anywhere on it.
- The library's frozen records equal what the pydantic schema validated (engine/library/schema.py),
  whether built from the YAML or from the sealed cache; the models and the records have the
  same fields.
- Verdict/Evidence are frozen dataclasses now: Contract 1 JSON is as before (a float confidence
  even from an int), and the pydantic records that hold a Verdict read and write it as before.
- The whole-file seal of the cache: a rewritten file falls back to each entry's own seal.

The subprocess tests are `integration` (they start processes); the rest are `unit`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from repopilot.engine.library import cache, schema
from repopilot.engine.library.loader import (
    ContextSpec,
    Examples,
    MatchExample,
    PatternFile,
    PatternSpec,
    default_dir,
    load_file,
    load_library,
    pattern_file,
)
from repopilot.records import Evidence, Verdict
from repopilot.run_records import TriageResult

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "tests" / "fixtures" / "engine" / "logs" / "pytest-gha.log"
# Top-level modules the classify path must not load: validation, YAML, the SDKs and their HTTP.
HEAVY = ("pydantic", "pydantic_core", "yaml", "openai", "ollama", "github", "httpx", "requests")
OURS = ("repopilot.run_records", "repopilot.engine.library.schema", "repopilot.pipeline")

_PROBE = """
import contextlib, io, json, sys
from repopilot.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "modules": sorted(sys.modules)}))
"""


def _modules(cache_dir: Path, *args: str) -> set[str]:
    env = dict(os.environ, REPOPILOT_CACHE_DIR=str(cache_dir))
    env.pop("REPOPILOT_PATTERNS", None)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, env=env, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stderr.decode()
    out = json.loads(proc.stdout.decode().splitlines()[-1])
    assert out["rc"] == 0
    return set(out["modules"])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or any(m == o for o in OURS))


@pytest.mark.integration
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_classify_with_a_warm_cache_imports_no_pydantic_yaml_or_sdk(tmp_path, fmt):
    args = ("classify", "--format", fmt, str(LOG))
    cold = _modules(tmp_path / "cache", *args)
    # the first run validates the library: the probe sees those imports when they happen
    assert {"yaml", "pydantic", "repopilot.engine.library.schema"} <= cold
    warm = _modules(tmp_path / "cache", *args)
    assert _heavy(warm) == []
    assert "repopilot.engine.classify" in warm  # the probe did run the command


@pytest.mark.integration
def test_the_cli_lists_its_commands_without_importing_them(tmp_path):
    env = dict(os.environ, REPOPILOT_CACHE_DIR=str(tmp_path / "cache"))
    probe = "import sys; from repopilot.cli import build_parser; build_parser()\n"
    probe += "print(sorted(m for m in sys.modules if m.startswith('repopilot')))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, env=env, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr.decode()
    modules = proc.stdout.decode()
    assert "repopilot.commands" not in modules and "repopilot.records" not in modules


# ------------------------------------------------------------------ the library's records


def _fields_of_model(model) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, info in model.model_fields.items():
        default = info.default_factory() if info.default_factory else info.default
        out[name] = "required" if info.is_required() else default
    return out


def _fields_of_record(record) -> dict[str, object]:
    # A list or dict default is filled in by library._spec (a NamedTuple default is shared):
    # `[]` / `{}` stand for it here.
    filled = {"captures": {}, "no_match": []}
    return {
        name: record._field_defaults.get(name, filled.get(name, "required"))
        for name in record._fields
    }


@pytest.mark.unit
@pytest.mark.parametrize(
    ("model", "record"),
    [
        (schema.PatternFile, PatternFile),
        (schema.PatternSpec, PatternSpec),
        (schema.ContextSpec, ContextSpec),
        (schema.Examples, Examples),
        (schema.MatchExample, MatchExample),
    ],
)
def test_the_schema_and_the_loaded_records_have_the_same_fields(model, record):
    assert _fields_of_model(model) == _fields_of_record(record)


@pytest.mark.unit
def test_a_spec_without_the_defaults_gets_them_and_its_own_lists():
    data = {"id": "x.y", "category": "network", "regex": "boom", "title": "t",
            "examples": {"match": ["boom", {"line": "boom 2"}]}}  # fmt: skip
    a, b = (pattern_file({"ecosystem": "e", "patterns": [data]}).patterns[0] for _ in range(2))
    assert (a.priority, a.confidence, a.context, a.examples.no_match) == (50, 0.8, None, [])
    assert a.examples.match == ["boom", MatchExample("boom 2", {})]
    assert a.examples.no_match is not b.examples.no_match
    assert a.examples.match[1].captures is not b.examples.match[1].captures


@pytest.mark.unit
def test_a_library_from_the_cache_equals_the_library_from_the_yaml(tmp_path):
    where = tmp_path / "cache"  # passed, as the entry points pass the settings' directory
    root = default_dir()
    fresh = {p.id: (p.spec, p.literals, p.source) for f in sorted(root.glob("*.yaml"))
             for p in load_file(f)}  # fmt: skip
    first = load_library(root, where)  # a miss: validated and written
    (written,) = (tmp_path / "cache").glob("patterns-*.json")
    assert written.with_suffix(".seal").is_file()
    again = load_library(root, where)  # a hit: built from the sealed entries
    for got in (first, again):
        assert {p.id: (p.spec, p.literals, p.source) for p in got} == fresh
    some = next(p for p in again if p.spec.context is not None)
    assert isinstance(some.spec.context, ContextSpec)
    assert any(isinstance(m, MatchExample) for p in again for m in p.spec.examples.match)


def _forge_titles(path: Path) -> None:
    data = json.loads(path.read_text())
    for entry in data.values():
        for spec in entry["file"]["patterns"]:
            spec["title"] = "forged"
    path.write_text(json.dumps(data))


@pytest.mark.unit
def test_a_rewritten_cache_file_fails_its_whole_file_seal_and_is_rebuilt(tmp_path):
    where = tmp_path / "cache"  # passed, as the entry points pass the settings' directory
    root = default_dir()
    want = [p.spec.title for p in load_library(root, where)]
    (path,) = (tmp_path / "cache").glob("patterns-*.json")
    assert cache.LiteralCache(str(root.resolve()), where).trusted
    _forge_titles(path)  # the .seal beside it is now stale, the entries' own seals too
    assert not cache.LiteralCache(str(root.resolve()), where).trusted
    assert [p.spec.title for p in load_library(root, where)] == want
    assert "forged" not in path.read_text()
    assert cache.LiteralCache(str(root.resolve()), where).trusted  # rewritten and sealed again


@pytest.mark.unit
def test_an_unsealed_file_is_read_entry_by_entry_and_then_sealed(tmp_path):
    where = tmp_path / "cache"  # passed, as the entry points pass the settings' directory
    root = default_dir()
    load_library(root, where)
    (path,) = (tmp_path / "cache").glob("patterns-*.json")
    path.with_suffix(".seal").unlink()
    got = cache.LiteralCache(str(root.resolve()), where)
    assert not got.trusted and all(got.get(k) is not None for k in got.entries)
    load_library(root, where)
    assert cache.LiteralCache(str(root.resolve()), where).trusted


@pytest.mark.unit
def test_each_library_has_its_own_file_and_old_ones_are_pruned(tmp_path):
    where = tmp_path / "cache"  # passed, as the entry points pass the settings' directory
    lib = tmp_path / "lib"
    lib.mkdir()
    engine = ROOT / "tests" / "fixtures" / "engine" / "patterns" / "engine.yaml"
    (lib / "engine.yaml").write_bytes(engine.read_bytes())
    load_library(lib, where)
    (mine,) = (tmp_path / "cache").glob("patterns-*.json")
    old = tmp_path / "cache" / "patterns-0000000000000000-000000000000.json"
    recent = tmp_path / "cache" / "patterns-1111111111111111-111111111111.json"
    for f in (old, recent):
        f.write_text("{}")
    stale = time.time() - (cache.PRUNE_DAYS + 1) * 86400
    os.utime(old, (stale, stale))
    (lib / "engine.yaml").write_bytes(engine.read_bytes() + b"\n# edited\n")  # a miss: a write
    load_library(lib, where)
    assert not old.exists() and recent.exists() and mine.exists()
    assert len(json.loads(mine.read_text())) == 1  # the edited file's entry only


# ------------------------------------------------------------------ Verdict as a dataclass


@pytest.mark.unit
def test_the_contract_json_of_a_verdict_is_as_pydantic_made_it():
    v = Verdict(
        source="a.log",
        category="test_failure",
        confidence=1,  # pydantic made this 1.0: the JSON says 1.0
        evidence=[Evidence(line=3, text="FAILED t")],  # a list became a tuple
        captures={"test": "t"},
    )
    assert json.dumps(v.contract()) == (
        '{"source": "a.log", "category": "test_failure", "confidence": 1.0, "decided_by": "none",'
        ' "pattern_id": null, "title": "", "hint": "", "evidence": [{"line": 3, "text": "FAILED t"}],'
        ' "captures": {"test": "t"}, "job": null, "step": null}'
    )
    assert isinstance(v.evidence, tuple) and isinstance(v.confidence, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.title = "x"  # type: ignore[misc]


@pytest.mark.unit
def test_model_copy_replaces_fields_and_refuses_unknown_ones():
    v = Verdict(source="a", category="unknown", captures={"k": "v"})
    w = v.model_copy(update={"title": "t", "category": "network"})
    assert (w.title, w.category, w.source, v.title) == ("t", "network", "a", "")
    assert v.model_copy() == v
    with pytest.raises(TypeError):
        v.model_copy(update={"titel": "t"})


@pytest.mark.unit
def test_a_triage_result_reads_back_its_verdict_strictly():
    v = Verdict(source="a", category="network", evidence=(Evidence(line=1, text="x"),))
    result = TriageResult(verdict=v, escalated=True)
    assert result.verdict is v
    back = TriageResult.model_validate_json(result.model_dump_json())
    assert back == result and isinstance(back.verdict, Verdict)
    assert result.model_dump(mode="json")["verdict"]["evidence"] == [{"line": 1, "text": "x"}]
    data = json.loads(result.model_dump_json())
    data["verdict"]["bogus"] = 1
    with pytest.raises(ValidationError):
        TriageResult.model_validate(data)
    data["verdict"].pop("bogus")
    data["verdict"]["category"] = "not_a_category"
    with pytest.raises(ValidationError):
        TriageResult.model_validate(data)
