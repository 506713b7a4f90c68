"""A failing test's message next to its line, per runner output format (engine/verdict/order.py,
engine/verdict/assertions.py), and the wrapper detector. Output written from each runner's documented
format."""

from __future__ import annotations

import pytest

from repopilot.engine.verdict.assertions import assertion_for
from repopilot.engine.verdict.fallback import Line
from repopilot.engine.verdict.order import is_wrapper, specific_before

pytestmark = pytest.mark.unit


def numbered(*texts: str) -> list[Line]:
    return [Line(i + 1, t, False) for i, t in enumerate(texts)]


def message(lines: list[Line], test_line: int) -> str | None:
    found = assertion_for(lines[test_line - 1], lines)
    return None if found is None else found.text


CASES = {
    "unittest": (
        [
            "FAIL: test_total (tests.test_cart.CartTest.test_total)",
            "----------------------------------------------------------------------",
            "Traceback (most recent call last):",
            '  File "/src/tests/test_cart.py", line 9, in test_total',
            "    self.assertEqual(total([1, 2]), 4)",
            "AssertionError: 3 != 4",
            "",
            "----------------------------------------------------------------------",
        ],
        1,
        "AssertionError: 3 != 4",
    ),
    "cargo (1.73+)": (
        [
            "test tests::totals ... FAILED",
            "",
            "failures:",
            "",
            "---- tests::totals stdout ----",
            "thread 'tests::totals' panicked at src/lib.rs:12:9:",
            "assertion `left == right` failed",
            "  left: 3",
            " right: 4",
        ],
        1,
        "assertion `left == right` failed",
    ),
    "cargo (older)": (
        [
            "test tests::totals ... FAILED",
            "---- tests::totals stdout ----",
            "thread 'tests::totals' panicked at 'assertion failed: `(left == right)`', src/lib.rs:12:9",
        ],
        1,
        "thread 'tests::totals' panicked at 'assertion failed: `(left == right)`', src/lib.rs:12:9",
    ),
    "phpunit": (
        [
            "There was 1 failure:",
            "",
            "1) Tests\\CartTest::testTotal",
            "Failed asserting that 3 matches expected 4.",
            "",
            "/src/tests/CartTest.php:14",
        ],
        3,
        "Failed asserting that 3 matches expected 4.",
    ),
    "rspec": (
        [
            "  1) Cart totals the items",
            "     Failure/Error: expect(cart.total).to eq(4)",
            "",
            "       expected: 4",
            "            got: 3",
        ],
        1,
        "     Failure/Error: expect(cart.total).to eq(4)",
    ),
    "dotnet test": (
        [
            "  Failed Shop.Tests.CartTests.Total [12 ms]",
            "  Error Message:",
            "   Assert.Equal() Failure: Values differ",
            "  Stack Trace:",
        ],
        1,
        "   Assert.Equal() Failure: Values differ",
    ),
    "surefire in Actions": (
        [
            "Error:  totals(shop.CartTest)  Time elapsed: 0.01 s  <<< FAILURE!",
            "org.opentest4j.AssertionFailedError: expected: <4> but was: <3>",
        ],
        1,
        "org.opentest4j.AssertionFailedError: expected: <4> but was: <3>",
    ),
    "go -v, message before the result": (
        [
            "=== RUN   TestTotal",
            "=== RUN   TestTotal/two_items",
            "    cart_test.go:33: total([1 2]) = 3, want 4",
            "=== RUN   TestOther",
            "--- FAIL: TestTotal (0.00s)",
            "    --- FAIL: TestTotal/two_items (0.00s)",
            "--- PASS: TestOther (0.00s)",
        ],
        5,
        "    cart_test.go:33: total([1 2]) = 3, want 4",
    ),
    "pytest section": (
        [
            "___________________________ test_total ___________________________",
            "    def test_total():",
            ">       assert total([1, 2]) == 4",
            "E       assert 3 == 4",
            "tests/test_cart.py:7: AssertionError",
            "=========================== short test summary info ============================",
            "FAILED tests/test_cart.py::test_total - assert 3 == 4",
        ],
        7,
        "E       assert 3 == 4",
    ),
}


@pytest.mark.parametrize("runner", sorted(CASES))
def test_the_message_of_a_failing_test(runner):
    texts, test_line, expected = CASES[runner]
    assert message(numbered(*texts), test_line) == expected


def test_no_message_is_invented():
    lines = numbered("--- FAIL: TestTotal (0.00s)", "FAIL", "FAIL\tacme.dev/cart\t0.01s")
    assert message(lines, 1) is None
    lines = numbered("FAILED tests/a.py::test_b - boom", "=== 1 failed ===")
    assert message(lines, 1) is None  # no section for the test in the log


@pytest.mark.parametrize(
    "text",
    [
        "Execution failed for task ':app:compileJava'.",
        "npm ERR! Test failed.  See above for more details.",
        "BUILD FAILED in 9s",
        " ELIFECYCLE  Command failed with exit code 1.",
        "error Command failed with exit code 1.",
        "ERROR: Job failed: exit code 1",
        "make: *** [Makefile:12: all] Error 2",
        "ninja: build stopped: subcommand failed.",
        "error: could not compile `cart` (lib) due to 1 previous error",
    ],
)
def test_wrappers(text):
    assert is_wrapper(text)


@pytest.mark.parametrize(
    "text",
    [
        "src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
        "npm error code ERESOLVE",
        "FAILED tests/test_cart.py::test_total - assert 3 == 4",
        "error[E0425]: cannot find value `totl` in this scope",
    ],
)
def test_specific_lines_are_not_wrappers(text):
    assert not is_wrapper(text)


def test_specific_before_a_wrapper_skips_the_script_echo():
    lines = numbered(
        "##[group]Run make",
        "make  # error: the echo is not evidence",
        "##[endgroup]",
        "cc -c a.c",
        "a.c:3:5: error: 'x' undeclared",
        "make: *** [Makefile:4: a.o] Error 1",
    )
    found = specific_before(lines, 6, 1)
    assert found is not None and found.number == 5
