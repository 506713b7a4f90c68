"""The failure signature (origin/signature.py) on real-looking pairs of logs: the same failure on
another runner, day, port or temp dir is equal; a different failure in the same file is not."""

from __future__ import annotations

import pytest

from repopilot.origin.signature import normalize, signature, signature_text
from repopilot.pipeline import load_classifier
from repopilot.records import Evidence, Verdict

pytestmark = pytest.mark.unit

PYTEST = """\
============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0
rootdir: /home/runner/work/app/app
collected 12 items

tests/test_api.py ....F.......                                           [100%]

=================================== FAILURES ===================================
________________________________ {test} _______________________________
E   ConnectionRefusedError: [Errno 111] Connection refused: 127.0.0.1:{port}
{tmp}/conf.json
=========================== short test summary info ============================
FAILED tests/test_api.py::{test} - ConnectionRefusedError: [Errno 111] Connection refused: \
127.0.0.1:{port}
========================= 1 failed, 11 passed in {secs}s =========================
##[error]Process completed with exit code 1.
"""
RUSTC = """\
   Compiling app v0.1.0 ({ws})
error[{code}]: mismatched types
  --> src/{file}:{line}:5
   |
{line} |     let x: u32 = "a";
   |                  ^^^ expected `u32`, found `&str`

error: could not compile `app` (bin "app") due to 1 previous error
##[error]Process completed with exit code 101.
"""
UNKNOWN = """\
Run ./deploy.sh
deploy: uploading artifact {hexid} to 10.1.{octet}.3:{port} (took {secs}s)
deploy: {what} at {stamp}
##[error]Process completed with exit code 2.
"""


@pytest.fixture(scope="module")
def classifier():
    return load_classifier()


def _sig(classifier, tmp_path, name: str, text: str) -> str | None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    [verdict] = [v for v in classifier.classify_path(path) if v.failed]
    return signature_text(verdict)


def pytest_log(test="test_fetch_user", port=54321, secs="3.21", tmp="/tmp/pytest-of-runner/p-3"):
    return PYTEST.format(test=test, port=port, secs=secs, tmp=tmp)


def test_same_pytest_failure_on_other_ports_durations_and_temp_dirs(classifier, tmp_path):
    a = _sig(classifier, tmp_path, "a.log", pytest_log())
    b = _sig(
        classifier, tmp_path, "b.log", pytest_log(port=40123, secs="12.80", tmp="/tmp/tmpq1w2e3")
    )
    assert a is not None and a == b
    assert "test_fetch_user" in a and "54321" not in a


def test_different_tests_in_the_same_file_differ(classifier, tmp_path):
    a = _sig(classifier, tmp_path, "a.log", pytest_log(test="test_fetch_user"))
    b = _sig(classifier, tmp_path, "b.log", pytest_log(test="test_delete_user"))
    assert a is not None and b is not None and a != b


def test_rustc_error_code_counts_but_its_line_does_not(classifier, tmp_path):
    def log(code="E0308", line=12, ws="/home/runner/work/app/app", file="main.rs"):
        return RUSTC.format(code=code, line=line, ws=ws, file=file)

    a = _sig(classifier, tmp_path, "a.log", log())
    moved = _sig(classifier, tmp_path, "b.log", log(line=14, ws="/Users/runner/work/app/app"))
    other_code = _sig(classifier, tmp_path, "c.log", log(code="E0425"))
    assert a is not None and a == moved
    assert other_code != a


def test_unknown_failures_compare_by_their_normalized_evidence_line(classifier, tmp_path):
    def log(what="something unexpected went wrong", **kw):
        values = dict(hexid="3f2a9c81b7d2", octet=2, port=8443, secs="1.52")
        values.update(stamp="2026-12-01T07:50:16Z", what=what)
        values.update(kw)
        return UNKNOWN.format(**values)

    a = _sig(classifier, tmp_path, "a.log", log())
    b = _sig(
        classifier,
        tmp_path,
        "b.log",
        log(hexid="a81c99d0e411", octet=7, port=9443, secs="0.98", stamp="2026-12-02T09:12:44Z"),
    )
    c = _sig(classifier, tmp_path, "c.log", log(what="the bucket does not exist"))
    assert a is not None and a.startswith("unknown|") and a == b
    assert c != a


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("timed out after 3.2s on localhost:8080", "timed out after 120 ms on localhost:39001"),
        ("write /tmp/tmpab12cd/out.txt failed", "write /tmp/tmpzz99yy/out.txt failed"),
        (
            r"open C:\Users\runneradmin\AppData\Local\Temp\x1\a.txt: denied",
            r"open C:\Users\runneradmin\AppData\Local\Temp\y2\a.txt: denied",
        ),
        ("at 2026-03-01T10:00:00.123Z object 0x7ffd1234", "at 2026-03-02 11:22:33 object 0xdead"),
        ("container 3f2a9c81b7d2 exited", "container 9be41d2a0c77 exited"),
        (
            "request 123e4567-e89b-12d3-a456-426614174000",
            "request 00000000-1111-2222-3333-4a4b4c4d4e4f",
        ),
        ("/home/runner/work/app/app/src/x.py:3", "/__w/app/app/src/x.py:3"),
    ],
)
def test_volatile_parts_normalize_away(one, other):
    assert normalize(one) == normalize(other)


def test_numbers_stay_in_test_names_and_codes():
    assert normalize("tests/t.py::test_case[3]", numbers=False) != normalize(
        "tests/t.py::test_case[4]", numbers=False
    )
    assert "E0308" in normalize("E0308", numbers=False)


def test_no_signature_without_a_failure_or_evidence():
    assert signature(Verdict(source="x", category="no_failure")) is None
    assert signature(Verdict(source="x", category="unknown")) is None
    ev = Verdict(source="x", category="unknown", evidence=(Evidence(line=1, text="boom 42"),))
    sig = signature(ev)
    assert sig is not None and sig.text == "unknown|line=boom <n>"


def test_free_text_is_used_only_when_nothing_names_the_failure():
    bare = Verdict(
        source="x",
        category="crash_segfault",
        pattern_id="p.crash",
        captures={"message": "Segmentation fault at 0x7f00 after 3s", "line": "9"},
    )
    named = bare.model_copy(update={"captures": {"test": "t::a", "message": "boom 1"}})
    assert signature_text(bare) == "p.crash|message=Segmentation fault at <hex> after <dur>"
    assert signature_text(named) == "p.crash|test=t::a"
