"""Issue 20, shapes 2 (wrong family), 5 (uninformative lines), 6 (formats not read) and 7 (passing
mentions): each log in tests/fixtures/formats20/, written from the tool's documented format, is
decided by the pattern written from that format, with the specific line first and the wrapper,
summary or stack frame never first; a passing log whose tests log errors is no failure. Run
through the real classifier, and once through the CLI as a user runs it."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from tests.paths import FIXTURES, REPO_ROOT

HERE = FIXTURES / "formats20"
CASES = list(csv.DictReader((HERE / "cases.csv").open(encoding="utf-8")))


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(load_library(REPO_ROOT / "patterns"))


@pytest.mark.unit
@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_composed_log_is_decided_by_its_tools_pattern(classifier, case) -> None:
    passing = case["category"] == "no_failure"  # shape 7: the log's own ending decides
    (v,) = classifier.classify_path(HERE / case["file"], assume_failed=not passing)
    if passing:
        assert v.category == "no_failure", (v.pattern_id, [e.text for e in v.evidence])
        return
    assert (v.category, v.pattern_id) == (case["category"], case["pattern"]), v.title
    # `guess`: the calibrated confidence stays under the threshold (a bare `ERROR` line with no
    # step or exit code to place it), so the pattern's verdict is offered as a best guess.
    assert v.decided_by == ("none" if case["guess"] else "pattern"), v.confidence
    assert case["first"] in v.evidence[0].text, [e.text for e in v.evidence]
    if case["not_first"]:
        assert case["not_first"] not in v.evidence[0].text


@pytest.mark.unit
def test_every_log_is_listed_once_and_its_texts_are_in_it() -> None:
    """A typo in cases.csv must not turn a check into one that cannot fail."""
    listed = [c["file"] for c in CASES]
    assert sorted(listed) == sorted(p.name for p in HERE.glob("*.log"))
    assert len(listed) == len(set(listed))
    for case in CASES:
        text = (HERE / case["file"]).read_text(encoding="utf-8")
        assert case["first"] in text, case["file"]
        assert not case["not_first"] or case["not_first"] in text, case["file"]
        assert case["shape"] in {"2", "4", "5", "6", "7"}
        assert bool(case["first"]) == (case["category"] != "no_failure"), case["file"]


@pytest.mark.unit
def test_unittest_exception_twenty_lines_below_its_header_leads(classifier) -> None:
    (v,) = classifier.classify_path(HERE / "unittest-error-far.log", assume_failed=True)
    exc, header = v.evidence[0], v.evidence[1]
    assert exc.text == "KeyError: 'x'"
    assert header.text.startswith("ERROR: test_lookup (shop.tests.test_cache.CacheTest")
    assert exc.line - header.line >= 20


@pytest.mark.unit
@pytest.mark.parametrize("name", ["go-panic-plain.log", "go-test-json-panic.log"])
def test_no_go_stack_frame_is_evidence(classifier, name) -> None:
    (v,) = classifier.classify_path(HERE / name, assume_failed=True)
    assert v.evidence[0].text.startswith("panic: ")
    frames = ("goroutine ", "\t/", "testing.", "example.com/", "created by ")
    assert not any(e.text.startswith(frames) for e in v.evidence)


@pytest.mark.unit
@pytest.mark.parametrize(
    "name", ["go-build-unused.log", "go-vet-unused.log", "zuul-go-build.log", "tsc-unused.log"]
)
def test_an_unused_declaration_the_compiler_printed_is_not_lint(classifier, name) -> None:
    (v,) = classifier.classify_path(HERE / name, assume_failed=True)
    assert v.category in {"compile_error", "type_check"} and v.category != "lint_format"


@pytest.mark.unit
@pytest.mark.parametrize(
    "name", ["npm-publish-404.log", "npm-publish-403.log", "cargo-publish-403.log", "twine-403.log"]
)
def test_a_refused_publish_is_not_a_dependency_problem(classifier, name) -> None:
    (v,) = classifier.classify_path(HERE / name, assume_failed=True)
    assert v.category == "permission_secret"


@pytest.mark.unit
@pytest.mark.parametrize(
    "name", ["pip-read-timeout.log", "curl-timeout.log", "npm-socket-timeout.log"]
)
def test_a_download_that_timed_out_is_not_a_cancelled_job(classifier, name) -> None:
    (v,) = classifier.classify_path(HERE / name, assume_failed=True)
    assert v.category == "network"


@pytest.mark.unit
@pytest.mark.parametrize("name", ["pytest-eio.log", "pytest-enospc.log"])
def test_an_io_error_inside_a_test_is_not_a_test_failure(classifier, name) -> None:
    (v,) = classifier.classify_path(HERE / name, assume_failed=True)
    assert v.category in {"runner_infra", "oom_disk"}


@pytest.mark.integration  # runs `repopilot classify` as a process
def test_cli_json_gives_the_physical_lines() -> None:
    names = ["zuul-pytest.log", "npm-publish-404.log", "rustc-ice.log"]
    proc = subprocess.run(
        [sys.executable, "-m", "repopilot", "classify", "--format", "json", "--assume-failed"]
        + [str(HERE / n) for n in names],
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    got = {r["source"].rsplit("/", 1)[-1]: r for r in json.loads(proc.stdout)["results"]}
    zuul = got["zuul-pytest.log"]
    assert zuul["category"] == "test_failure"
    # line 15 of the file, shown without Zuul's `<time> | <host> | ` prefix
    assert zuul["evidence"][0] == {"line": 15, "text": "E       AssertionError: assert 5 == 10"}
    npm = got["npm-publish-404.log"]
    assert (npm["category"], npm["evidence"][0]["line"]) == ("permission_secret", 3)
    ice = got["rustc-ice.log"]
    assert (ice["category"], ice["pattern_id"], ice["evidence"][0]["line"]) == (
        "compile_error",
        "rust.rustc.ice",
        3,
    )


@pytest.mark.unit
def test_a_refused_npm_put_is_decided_by_its_pattern_not_by_the_step_recast(classifier) -> None:
    """The publish step's recast (engine/verdict/step_prior.py) is for a 404 with no PUT line
    (tests/engine/verdict/test_step_prior.py); npm's `- PUT <url>` line decides it alone."""
    (v,) = classifier.classify_path(
        FIXTURES / "anyproject" / "prior-publish-404.log", assume_failed=True
    )
    assert (v.pattern_id, v.category) == ("node.npm.publish-denied", "permission_secret")
    assert v.evidence[0].text.startswith("npm ERR! 404 Not Found - PUT ")
    assert v.confidence >= 0.8


@pytest.mark.unit
def test_go_build_json_events_decode_to_the_compilers_line(classifier) -> None:
    (v,) = classifier.classify_path(HERE / "go-test-json-build.log", assume_failed=True)
    assert v.evidence[0].line == 2
    assert v.evidence[0].text == 'cart/cart.go:5:2: "strings" imported and not used'


# Other tools' `error:` lines, each as the tool prints it (git's, pip's PEP 668 refusal, cargo's
# resolver and manifest errors, SwiftPM's): in a log with no steps, no step rule keeps clippy's
# pattern out, so none of them may be read as a clippy lint.
NOT_CLIPPY = [
    ("error: pathspec 'feature/x' did not match any file(s) known to git", None),
    ("error: externally-managed-environment", "config_error"),
    ('error: failed to select a version for the requirement `serde = "^9.0"`', None),
    ("error: could not find `Cargo.toml` in `/w` or any parent directory", "config_error"),
    ("error: root manifest not found", None),
]


@pytest.mark.unit
@pytest.mark.parametrize(("line", "category"), NOT_CLIPPY)
def test_a_plain_logs_error_line_is_not_a_clippy_lint(classifier, tmp_path, line, category):
    log = tmp_path / "plain.log"
    log.write_text(f"+ ./ci.sh\n{line}\n", encoding="utf-8")
    (v,) = classifier.classify_path(log, assume_failed=True)
    assert v.pattern_id is None or not v.pattern_id.startswith("rust.clippy.")
    assert v.category != "lint_format"
    if category:
        assert v.category == category


@pytest.mark.unit
def test_clippy_in_its_step_still_leads_with_the_lints_error_line(classifier) -> None:
    (v,) = classifier.classify_path(FIXTURES / "ecosystems" / "rust-clippy.log")
    assert (v.category, v.pattern_id) == ("lint_format", "rust.clippy.lint")
    assert v.evidence[0].text == "error: this `if` has identical blocks"
