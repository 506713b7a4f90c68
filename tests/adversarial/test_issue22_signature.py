"""Issue 22, item 3: different failures no longer share a signature. A PR author could name a new
failing test so that it normalized to the base branch's failing one (`[1m]` vs `[5m]`, hex ids,
addresses, `host:port`, a file under a `tmp/` directory, a long common prefix) and get
`base_branch`, "not caused by this PR". Key captures are identities now; only a trailing timing
and the checkout prefix leave them, and a long part is shortened with a hash, never cut."""

from __future__ import annotations

import pytest

from repopilot.origin.decide import BaseJob, OriginFacts, decide
from repopilot.origin.signature import MAX_PART, normalize, signature_text
from repopilot.pipeline import load_classifier
from repopilot.records import Evidence, Verdict

pytestmark = pytest.mark.unit


def _sig(**captures: str) -> str:
    verdict = Verdict(
        source="x", category="test_failure", pattern_id="python.pytest.failed", captures=captures
    )
    text = signature_text(verdict)
    assert text is not None
    return text


PAIRS = [
    ("tests/t.py::test_window[1m]", "tests/t.py::test_window[5m]"),
    ("tests/t.py::test_window[1m]", "tests/t.py::test_window[24h]"),
    ("tests/t.py::test_retry[3s]", "tests/t.py::test_retry[30s]"),
    ("tests/t.py::test_obj[deadbeef12]", "tests/t.py::test_obj[cafebabe34]"),
    ("tests/t.py::test_obj[0x1f]", "tests/t.py::test_obj[0x2e]"),
    ("tests/t.py::test_ip[10.0.0.1]", "tests/t.py::test_ip[192.168.1.1]"),
    ("tests/t.py::test_hp[localhost:8080]", "tests/t.py::test_hp[localhost:9090]"),
    ("tests/t.py::test_at[12:00:00]", "tests/t.py::test_at[13:30:00]"),
    (
        "tests/t.py::test_id[123e4567-e89b-12d3-a456-426614174000]",
        "tests/t.py::test_id[00000000-1111-2222-3333-4a4b4c4d4e4f]",
    ),
    ("tests/tmp/a/test_x.py::test_one", "tests/tmp/b/test_x.py::test_one"),
    ("tmp/a/test_x.py::test_one", "tmp/b/test_y.py::test_one"),
    ("/tmp/a/test_x.py::test_one", "/tmp/b/test_y.py::test_one"),
    ("tests/t.py::test_" + "p" * 170 + "_a", "tests/t.py::test_" + "p" * 170 + "_b"),
]


@pytest.mark.parametrize(("one", "other"), PAIRS)
def test_different_test_ids_have_different_signatures(one, other):
    assert _sig(test=one) != _sig(test=other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (
            {"file": "tmp/a/test_x.py", "test": "test_one"},
            {"file": "tmp/b/test_x.py", "test": "test_one"},
        ),
        (
            {"file": "/tmp/a/x_test.go", "test": "TestA"},
            {"file": "/tmp/b/x_test.go", "test": "TestA"},
        ),
        ({"code": "E" + "1" * 200}, {"code": "E" + "1" * 199 + "2"}),
    ],
)
def test_different_keys_have_different_signatures(one, other):
    assert _sig(**one) != _sig(**other)


def test_a_long_part_is_bounded_and_hashed():
    long = "x" * 1000
    text = _sig(test=long)
    part = text.split("test=", 1)[1]
    assert len(part) == MAX_PART and "#" in part
    assert _sig(test=long) == text  # stable


def test_the_same_failure_still_matches_across_runs():
    ws = "/home/runner/work/app/app/tests/t.py::test_window[1m]"
    assert _sig(test=ws) == _sig(test="/__w/app/app/tests/t.py::test_window[1m]")
    assert _sig(test="suite > renders [0.12ms]") == _sig(test="suite > renders [3.40ms]")
    assert _sig(test="suite > renders (12 ms)") == _sig(test="suite > renders")
    # free text still loses its volatile parts
    a = Verdict(
        source="x",
        category="crash_segfault",
        pattern_id="p.crash",
        captures={"message": "Segmentation fault at 0x7f00 after 3s on 10.0.0.1:8080"},
    )
    b = a.model_copy(
        update={"captures": {"message": "Segmentation fault at 0x7e11 after 5s on 10.0.0.2:9090"}}
    )
    assert signature_text(a) == signature_text(b)


def test_free_text_keeps_apart_files_in_a_relative_tmp_directory_and_long_lines():
    assert normalize("error in tests/tmp/a/x.py") != normalize("error in tests/tmp/b/x.py")
    assert normalize("cannot write /tmp/tmpab12/out.txt") == normalize(
        "cannot write /tmp/q9/out.txt"
    )
    assert normalize("cannot write /tmp/tmpab12/out.txt") != normalize(
        "cannot write /tmp/q9/in.txt"
    )
    head = "error: " + "y" * 200
    assert normalize(head + " first") != normalize(head + " second")
    ev = [Evidence(line=1, text=head + " first")]
    other = [Evidence(line=1, text=head + " second")]
    one = signature_text(Verdict(source="x", category="unknown", evidence=ev))
    two = signature_text(Verdict(source="x", category="unknown", evidence=other))
    assert one != two


PYTEST = """\
============================= test session starts ==============================
collected 3 items

tests/test_window.py ..F                                                  [100%]

=================================== FAILURES ===================================
__________________________ test_window[{param}] __________________________
E   AssertionError: assert 0 == 1
=========================== short test summary info ============================
FAILED tests/test_window.py::test_window[{param}] - AssertionError: assert 0 == 1
========================= 1 failed, 2 passed in 0.12s =========================
##[error]Process completed with exit code 1.
"""


def test_a_pr_failure_named_like_the_base_one_is_not_blamed_on_the_base(tmp_path):
    classifier = load_classifier()

    def sig(name: str, param: str) -> str | None:
        path = tmp_path / name
        path.write_text(PYTEST.format(param=param), encoding="utf-8")
        [verdict] = [v for v in classifier.classify_path(path) if v.failed]
        assert "test_window" in (verdict.captures.get("test") or "")
        return signature_text(verdict)

    base, pr = sig("base.log", "1m"), sig("pr.log", "5m")
    assert base != pr
    facts = OriginFacts(
        category="test_failure",
        signature=pr,
        base_branch="main",
        base=(BaseJob(41, "https://example.invalid/runs/41", "failure", base),),
        changed_files=("tests/test_window.py",),
    )
    assert decide(facts).origin == "undetermined"
    same = OriginFacts(
        category="test_failure",
        signature=sig("again.log", "1m"),
        base_branch="main",
        base=(BaseJob(41, "https://example.invalid/runs/41", "failure", base),),
        changed_files=("tests/test_window.py",),
    )
    assert decide(same).origin == "base_branch"
