"""The matching engine and `repopilot classify` (Contract 1), on fixtures inside tests/."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_file, load_library
from repopilot.errors import PatternError
from tests.engine_support import LOGS, PATTERNS, classify_json, cli

CONTRACT_KEYS = {
    "source",
    "category",
    "confidence",
    "decided_by",
    "pattern_id",
    "title",
    "hint",
    "evidence",
    "captures",
    "job",
    "step",
}


@pytest.mark.integration
def test_contract1_json_shape_and_verdict():
    (r,) = classify_json(str(LOGS / "pytest-gha.log"))
    assert set(r) == CONTRACT_KEYS
    assert r["category"] == "test_failure" and r["decided_by"] == "pattern"
    assert r["pattern_id"] == "t.pytest.failed"
    assert r["evidence"][0] == {
        "line": 10,
        "text": "FAILED tests/a.py::test_b - AssertionError: assert 1 == 2",
    }
    assert r["captures"] == {"test": "tests/a.py::test_b"}
    assert r["title"] == "pytest: tests/a.py::test_b failed (2 failures)"
    assert r["hint"] == "Run `pytest tests/a.py::test_b`."
    assert all(e["text"] != "##[error]Process completed with exit code 1." for e in r["evidence"])


@pytest.mark.integration
def test_priority_beats_closeness():
    # the summary line is closer to the end but has a lower priority than the FAILED line
    (r,) = classify_json(str(LOGS / "pytest-gha.log"))
    assert r["evidence"][0]["line"] == 10


@pytest.mark.integration
def test_every_input_format_gives_one_result_per_job():
    res = classify_json(
        str(LOGS / "pytest-gha.log.gz"), str(LOGS / "ghcli.log"), str(LOGS / "run.zip")
    )
    got = [(r["source"].split("logs/", 1)[-1], r["category"]) for r in res]
    assert got == [
        ("pytest-gha.log.gz", "test_failure"),
        ("ghcli.log!build", "no_failure"),
        ("ghcli.log!test", "test_failure"),
        ("run.zip!1_build.txt", "no_failure"),
        ("run.zip!2_test (3.11).txt", "test_failure"),
        ("run.zip!lint/", "oom_disk"),
    ]
    assert res[2]["evidence"][0]["line"] == 5  # physical line of the gh --log file


@pytest.mark.integration
def test_step_limited_pattern_only_matches_in_its_step():
    (r,) = classify_json(str(LOGS / "ghcli.log"))[1:]
    assert r["pattern_id"] == "t.go.fail"


@pytest.mark.integration
def test_stdin_is_read(tmp_path):
    proc = cli(
        "classify",
        "--format",
        "json",
        "--no-builtin",
        "--patterns",
        str(PATTERNS),
        "-",
        stdin=(LOGS / "plain-travis.log").read_bytes(),
    )
    assert proc.returncode == 0, proc.stderr
    (r,) = json.loads(proc.stdout)["results"]
    assert r["source"] == "<stdin>" and r["category"] == "oom_disk"
    assert r["evidence"][0]["line"] == 2


@pytest.mark.integration
def test_passing_log_is_no_failure_even_with_scary_words():
    (r,) = classify_json(str(LOGS / "passing-gha.log"))
    assert r["category"] == "no_failure" and r["evidence"] == [] and r["decided_by"] == "none"


@pytest.mark.integration
def test_unknown_failure_gives_best_guess_evidence():
    (r,) = classify_json(str(LOGS / "unknown-gha.log"))
    assert r["category"] == "unknown" and r["decided_by"] == "none" and r["pattern_id"] is None
    # the script echo (between `##[group]Run` and `##[endgroup]`) is never evidence
    assert r["evidence"][0] == {"line": 5, "text": "frobnicator: error: widget misaligned"}
    assert all(e["line"] != 2 for e in r["evidence"])


@pytest.mark.integration
def test_cancellation():
    (r,) = classify_json(str(LOGS / "cancel-gha.log"))
    assert r["category"] == "timeout_cancelled" and r["evidence"][0]["line"] == 3


@pytest.mark.integration
def test_text_format_shows_evidence_context_and_hint():
    proc = cli(
        "classify", "--no-builtin", "--patterns", str(PATTERNS), str(LOGS / "pytest-gha.log")
    )
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert "category:   test_failure" in out
    assert re.search(r">\s+10 \| FAILED tests/a.py::test_b", out)
    assert re.search(r"\s9 \| ===", out) and re.search(r"\s11 \| FAILED tests/a.py::test_c", out)
    assert "hint:       Run `pytest tests/a.py::test_b`." in out


@pytest.mark.integration
@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"", "empty log"), (b"\0\0\0\0\0\0\0binary", "binary input")],
)
def test_unusable_input_is_one_line_and_nonzero(tmp_path, content, needle):
    p = tmp_path / "in.log"
    p.write_bytes(content)
    proc = cli("classify", "--no-builtin", "--patterns", str(PATTERNS), str(p))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.integration
def test_bad_yaml_reports_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ecosystem: x\npatterns:\n  - id: a\n    regex: [unclosed\n")
    proc = cli(
        "classify", "--no-builtin", "--patterns", str(tmp_path), str(LOGS / "pytest-gha.log")
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2 and f"{bad}:" in err and "invalid YAML" in err


@pytest.mark.unit
def test_invalid_regex_names_the_pattern(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text(
        "ecosystem: x\npatterns:\n"
        "  - id: x.ok\n    category: other\n    regex: 'fine here'\n    title: t\n"
        "    examples: {match: ['fine here'], no_match: ['nope']}\n"
        "  - id: x.broken\n    category: other\n    regex: 'oops (unclosed'\n    title: t\n"
        "    examples: {match: ['oops'], no_match: ['nope']}\n"
    )
    with pytest.raises(PatternError, match=r"x\.yaml:8: pattern x\.broken: invalid regex"):
        load_file(f)


@pytest.mark.unit
def test_schema_violation_points_at_the_pattern_line(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text(
        "ecosystem: x\npatterns:\n"
        "  - id: x.bad\n    category: not_a_category\n    regex: 'abcd'\n    title: t\n"
        "    examples: {match: ['abcd'], no_match: ['nope']}\n"
    )
    with pytest.raises(PatternError, match=r"x\.yaml:3: patterns\.0\.category"):
        load_file(f)


@pytest.mark.unit
def test_duplicate_ids_rejected(tmp_path):
    body = (
        "ecosystem: x\npatterns:\n  - id: dup.one\n    category: other\n    regex: 'abcd'\n"
        "    title: t\n    examples: {match: ['abcd'], no_match: ['nope']}\n"
    )
    (tmp_path / "a.yaml").write_text(body)
    (tmp_path / "b.yaml").write_text(body)
    with pytest.raises(PatternError, match="duplicate pattern id dup.one"):
        load_library(tmp_path)


@pytest.mark.integration
def test_redos_pattern_times_out_is_reported_and_run_goes_on(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "evil.yaml").write_text(
        "ecosystem: x\npatterns:\n"
        "  - id: x.evil\n    category: other\n    regex: '(a|a)+$'\n    prefilter: ['aaaa']\n"
        "    title: evil\n    examples: {match: ['aaaa'], no_match: ['bbbb']}\n"
        "  - id: x.disk\n    category: oom_disk\n    regex: 'No space left on device'\n"
        "    title: disk\n    examples: {match: ['No space left on device'], no_match: ['x']}\n"
    )
    log = tmp_path / "evil.log"
    # past SET_MIN (engine/match/scan.py), so the set engine is built for it
    log.write_text(("a" * 5000 + "b\n") * 80 + "x: No space left on device\n")
    args = [sys.executable, "-m", "repopilot", "classify", "--format", "json"]
    args += ["--no-builtin", "--patterns", str(lib), str(log)]
    for engine in ("reference", "set"):
        start = time.monotonic()
        env = dict(os.environ, REPOPILOT_SCAN_ENGINE=engine)
        proc = subprocess.run(args, capture_output=True, env=env, timeout=120)
        assert time.monotonic() - start < 60
        assert proc.returncode == 0
        (r,) = json.loads(proc.stdout)["results"]
        assert r["category"] == "oom_disk" and r["evidence"][0]["line"] == 81
        if engine == "reference":  # `regex` tries the hostile pattern: its timeout says so
            assert "pattern x.evil hit the regex timeout" in proc.stderr.decode()
        elif importlib.util.find_spec("hyperscan") is not None:
            # the set engine decides it in linear time: `regex` never runs it on these lines
            assert "timeout" not in proc.stderr.decode()


@pytest.mark.unit
def test_classifier_api_reuses_compiled_library():
    c = Classifier(load_library(PATTERNS))
    first = c.classify_path(LOGS / "pytest-gha.log")[0]
    again = c.classify_path(LOGS / "pytest-gha.log")[0]
    assert first == again and first.step_lines == (4, 14)


@pytest.mark.integration
def test_lone_cr_shows_what_a_terminal_shows(tmp_path):
    log = tmp_path / "travis.log"
    log.write_bytes(
        b"$ make disk\r\nwrite x: No space left on device\r\n"
        b'travis_time:end:1234\r\x1b[0KThe command "make disk" exited with 1.\r\n'
    )
    (r,) = classify_json(str(log))
    assert r["category"] == "oom_disk" and r["evidence"][0]["line"] == 2


@pytest.mark.integration
def test_specific_hit_counts_as_failure_without_exit_code_line(tmp_path):
    ts = "2026-01-02T03:04:05.0000000Z "
    log = tmp_path / "truncated.log"
    log.write_text(
        f"{ts}##[group]Run docker build .\n{ts}##[endgroup]\n{ts}write: No space left on device\n"
    )
    (r,) = classify_json(str(log))
    assert r["category"] == "oom_disk"  # priority 90 >= SURE_FAILURE
    log.write_text(
        f"{ts}##[group]Run pytest\n{ts}##[endgroup]\n{ts}FAILED tests/a.py::test_b - boom\n"
    )
    (r,) = classify_json(str(log))
    # An excerpt (no exit line, no job end) that states a failure is a failure (issue 10).
    assert r["category"] == "test_failure"


@pytest.mark.integration
def test_secrets_in_evidence_are_redacted(tmp_path):
    ts = "2026-01-02T03:04:05.0000000Z "
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2
    log = tmp_path / "leak.log"
    log.write_text(
        f"{ts}##[group]Run ./sync\n{ts}##[endgroup]\n"
        f"{ts}fatal: could not read from https://bot:{token}@example.com/repo\n"
        f"{ts}##[error]Process completed with exit code 1.\n"
    )
    proc = cli(
        "classify", "--format", "json", "--no-builtin", "--patterns", str(PATTERNS), str(log)
    )
    assert proc.returncode == 0 and token not in proc.stdout.decode()
    (r,) = json.loads(proc.stdout)["results"]
    assert r["evidence"][0]["line"] == 3 and "[REDACTED:" in r["evidence"][0]["text"]


@pytest.mark.integration
def test_travis_command_mid_line_is_a_step_and_points_at_the_failing_command(tmp_path):
    log = tmp_path / "travis.log"
    log.write_bytes(
        b"$ make deps\nok\n"
        b"travis_time:start:1a2b\r\x1b[0K$ ./check-links.sh docs/\n"
        b"checking 120 pages\n"
        b"travis_time:end:1a2b\r\x1b[0K\n"
        b'The command "./check-links.sh docs/" exited with 1.\n'
    )
    (r,) = classify_json(str(log))
    assert r["category"] == "unknown"
    assert r["evidence"][0] == {"line": 3, "text": "$ ./check-links.sh docs/"}
