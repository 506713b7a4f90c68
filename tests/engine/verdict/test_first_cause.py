"""First cause, honestly ranked (issue 20, "What the misses look like" items 3 and 5): which line
leads a verdict's evidence when the first candidate says little. Logs in tests/fixtures/firstcause/
are written from each tool's documented output format (pytest, unittest, `go test`, rustc, GCC),
none copied from a corpus."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.bare_message import owner_of_bare, uninformative
from repopilot.engine.verdict.line_score import Line
from repopilot.records import Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

LOGS = FIXTURES / "firstcause"


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def one(engine: Classifier, name: str) -> Verdict:
    (v,) = engine.classify_path(LOGS / name, False)
    return v


def texts(v: Verdict) -> list[str]:
    return [e.text for e in v.evidence]


# 1. pytest: a bare `assert False` / `AssertionError` yields to the test's own line


@pytest.mark.parametrize(
    ("name", "test_line", "bare"),
    [
        (
            "pytest-bare-assert.log",
            "FAILED tests/test_cart.py::test_checkout - assert False",
            "E       assert False",
        ),
        (
            "pytest-bare-assertionerror.log",
            "FAILED tests/test_api.py::test_status - AssertionError",
            "E           AssertionError",
        ),
    ],
)
def test_pytest_bare_message_follows_the_test_line(engine, name, test_line, bare):
    v = one(engine, name)
    assert v.category == "test_failure" and v.decided_by == "pattern"
    assert texts(v)[:2] == [test_line, bare]
    assert not v.assertion_first  # evidence[0] is the test's line, not its message


def test_pytest_bare_message_without_summary_follows_its_location_line(engine):
    # `-rN`: no short summary; the hit is the `E` line itself, the test file's location leads
    v = one(engine, "pytest-bare-nosummary.log")
    assert texts(v)[:2] == ["tests/test_api.py:20: AssertionError", "E       assert False"]


def test_pytest_informative_message_stays_first(engine):
    v = one(engine, "pytest-informative.log")
    assert texts(v)[:2] == [
        "E       assert 3 == 4",
        "FAILED tests/test_cart.py::test_total - assert 3 == 4",
    ]
    assert v.assertion_first


def test_pytest_assertion_error_continued_on_more_lines_is_informative(engine):
    # `AssertionError:` whose message goes on in the next `E` lines (numpy.testing's form)
    v = one(engine, "pytest-multiline-assertionerror.log")
    assert texts(v)[0].startswith("E   AssertionError:") and v.assertion_first
    assert texts(v)[1].startswith("FAILED tests/test_grid.py::test_shape")


def test_where_lines_do_not_make_a_bare_assert_informative():
    lines = [
        Line(1, "_____ test_ok _____", False),
        Line(2, "E       assert False", False),
        Line(3, "E        +  where False = ok()", False),
        Line(4, "tests/test_a.py:3: AssertionError", False),
        Line(5, "FAILED tests/test_a.py::test_ok - assert False", False),
    ]
    assert uninformative(lines[4], lines[1], lines)
    assert owner_of_bare(lines[1], lines) == lines[3]
    # a location in a library file is not the test's own line
    library = [*lines[:3], Line(4, "/usr/lib/python3.12/contextlib.py:81: AssertionError", False)]
    assert owner_of_bare(lines[1], library) is None


# 2. Go: the panic message leads, never `goroutine N [running]:` or a stack frame


@pytest.mark.parametrize("name", ["go-panic.log", "go-panic-main.log"])
def test_go_panic_message_leads(engine, name):
    v = one(engine, name)
    first = texts(v)[0]
    assert first.startswith("panic: ")
    assert all(not t.startswith(("goroutine ", "\t/", "testing.", "main.")) for t in texts(v))


# 3. unittest: the exception below an `ERROR:`/`FAIL:` header leads, the header second


def test_unittest_error_exception_leads_header_second(engine):
    v = one(engine, "unittest-error.log")
    assert texts(v)[:2] == [
        "ValueError: bad header: b'\\x00\\x01'",
        "ERROR: test_load (pkg.tests.test_store.StoreTest.test_load)",
    ]
    assert v.assertion_first


def test_unittest_bare_assertion_error_follows_the_header(engine):
    v = one(engine, "unittest-bare.log")
    assert texts(v)[:2] == [
        "FAIL: test_empty (pkg.tests.test_store.StoreTest.test_empty)",
        "AssertionError",
    ]
    assert not v.assertion_first


# 4. Compilers: a note/help never beats the error it belongs to


def test_rustc_note_never_beats_its_error(engine):
    v = one(engine, "rustc-note.log")
    assert v.category == "compile_error"
    assert texts(v)[0] == "error[E0308]: mismatched types"
    assert all("note:" not in t and "help:" not in t for t in texts(v))


def test_gcc_note_never_beats_the_error_above_it(engine):
    v = one(engine, "gcc-note.log")
    assert v.category == "compile_error"
    assert "error: too few arguments to function 'sum_items'" in texts(v)[0]
    assert all(": note: " not in t for t in texts(v))
