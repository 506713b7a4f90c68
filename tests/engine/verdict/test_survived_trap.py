"""An EXIT/ERR trap is not the script going on (engine/verdict/survived.py, "went on"): under
`bash -e` a failed command ends the script and its trap handler runs, echoed by xtrace like any
command; what the handler prints (a cleanup that finds nothing to clean) is no cause. xtrace shows
the `trap` command itself, which names the handler. Logs written for the test from bash's xtrace
format (GNU Bash manual, `set -x`, `trap`) and npm's documented error output, none copied from a
corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.records import Verdict

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "
DENIED = (
    "npm ERR! 403 403 Forbidden - PUT https://registry.npmjs.org/acme-widgets - You do not have "
    'permission to publish "acme-widgets". Are you logged in as the correct user?'
)
PUBLISH = ["+ npm publish --access public", "npm ERR! code E403", DENIED]
CLEANUP = ["+ cleanup", "+ docker compose -f ci/compose.yml down", "Error: No such container: db"]


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def classify(engine: Classifier, tmp_path: Path, *body: str) -> Verdict:
    lines = [
        "##[group]Run ./scripts/release.sh",
        "./scripts/release.sh",
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *body,
        "##[error]Process completed with exit code 1.",
    ]
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    (v,) = engine.classify_path(path)
    return v


@pytest.mark.parametrize(
    "trap",
    ["+ trap cleanup EXIT", "+ trap 'cleanup' ERR EXIT", '++ trap -- "cleanup $?" EXIT'],
)
def test_the_trap_handlers_error_is_not_the_cause(engine, tmp_path, trap):
    v = classify(engine, tmp_path, "+ set -euo pipefail", trap, *PUBLISH, *CLEANUP)
    assert (v.category, v.pattern_id) == ("permission_secret", "node.npm.publish-denied")
    assert v.evidence[0].text == DENIED


def test_a_trap_does_not_stop_a_handled_error_from_being_survived(engine, tmp_path):
    # the probe's 404 is handled: the next command is the script's own, not the trap's
    v = classify(
        engine,
        tmp_path,
        "+ trap cleanup EXIT",
        "+ npm view acme-widgets@2.0.0 version",
        "npm ERR! code E404",
        "npm ERR! 404 Not Found - GET https://registry.npmjs.org/acme-widgets/2.0.0 - Not found",
        "+ echo 'not published yet'",
        "not published yet",
        "+ ./scripts/check-changelog.sh 2.0.0",
        "Error: CHANGELOG.md has no entry for 2.0.0",
        *CLEANUP[:2],
    )
    assert v.evidence[0].text == "Error: CHANGELOG.md has no entry for 2.0.0"
    assert all("E404" not in e.text for e in v.evidence)
