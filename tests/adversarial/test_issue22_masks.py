"""Issue 22, item 4 and an "Also seen" note: `::add-mask::` stays linear in the number of values
(it recompiled one alternation of every value per new value: 4,000 masks took minutes), has a cap
with one clear line, and counts only at a line start, as the runner does."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from repopilot.safety.masks import (
    MAX_MASKS,
    apply_masks,
    forget_masks,
    mask_values,
    registered_masks,
    remember_masks,
)
from repopilot.safety.redact import clean_for_model

pytestmark = pytest.mark.integration

STAMP = "2026-01-01T00:00:00.0000000Z "


@pytest.fixture(autouse=True)
def _fresh():
    forget_masks()
    yield
    forget_masks()


def _value(i: int) -> str:
    return f"Mv{i:05d}q{i * 7919 % 100003:06d}"


def _register_and_print(n: int) -> float:
    """`n` texts, each registering one new value and printing it: the worst order for a
    registry (one new value before every use). CPU time of the whole loop."""
    forget_masks()
    start = time.process_time()
    for i in range(n):
        value = _value(i)
        out = apply_masks(f"{STAMP}::add-mask::{value}\n{STAMP}login {value} ok", lambda k: "[M]")
        assert value not in out
    return time.process_time() - start


def test_four_thousand_masks_cost_about_forty_times_one_hundred():
    small = min(_register_and_print(100) for _ in range(3))
    large = _register_and_print(4000)
    # linear would be 40x, the batches' log factor about 70x; the quadratic registry was >1000x
    assert large / max(small, 1e-3) < 400, (small, large)


def test_every_registered_value_is_masked_and_short_ones_are_not():
    remember_masks("\n".join(f"::add-mask::{_value(i)}" for i in range(4000)) + "\n::add-mask::abc")
    assert len(registered_masks()) == 4000  # `abc` is shorter than MIN_MASK
    text = " ".join(_value(i) for i in range(0, 4000, 37)) + " abc " + _value(3999) + "tail"
    out = clean_for_model(text)
    assert not any(_value(i) in out.text for i in range(4000))
    assert out.text.endswith(" abc [REDACTED:add-mask]tail")
    assert out.count == len(range(0, 4000, 37)) + 1


def test_values_of_two_batches_overlapping_are_one_mark():
    remember_masks("::add-mask::abcdef")
    for i in range(70):  # `abcdef` goes into a compiled batch; `defghi` stays pending
        remember_masks(f"::add-mask::{_value(i)}")
    remember_masks("::add-mask::defghi")
    assert apply_masks("x abcdefghi y defghi z abcdef", lambda k: "#") == "x # y # z #"


def test_a_text_with_a_lone_surrogate_is_masked_too():
    remember_masks("::add-mask::Surrogate1value")
    text = "model said \ud800 Surrogate1value and Surrogate1value"
    assert apply_masks(text, lambda k: "#") == "model said \ud800 # and #"


def test_past_the_cap_one_line_says_so(capfd):
    remember_masks("\n".join(f"::add-mask::{_value(i)}" for i in range(MAX_MASKS + 5)))
    remember_masks("::add-mask::one-more-value")
    err = capfd.readouterr().err
    assert err.count("RepoPilot: more than") == 1 and "later values are not masked" in err
    assert len(registered_masks()) == MAX_MASKS


@pytest.mark.parametrize(
    "text, value",
    [
        ("::add-mask::Plain4", "Plain4"),
        ("  ::ADD-MASK::  Upper5", "Upper5"),
        (f"{STAMP}::add-mask::Stamped6", "Stamped6"),
        ("progress 10%\r::add-mask::AfterCr7", "AfterCr7"),
        ("build\tRun x\t" + STAMP + "::add-mask::GhCli8", "GhCli8"),
        ("  12| ::add-mask::Gutter9", "Gutter9"),
    ],
)
def test_a_command_at_a_line_start_registers(text, value):
    assert mask_values("first line\n" + text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "echo done ::add-mask::MidLine1",
        f"{STAMP}result: ::add-mask::MidLine2",
        "build\tRun x\t" + STAMP + "say ::add-mask::MidLine3",
    ],
)
def test_a_command_mid_line_registers_nothing(text):
    assert mask_values(text) == set()
    out = clean_for_model(text + "\nprinted MidLine1 MidLine2 MidLine3").text
    assert "printed MidLine1 MidLine2 MidLine3" in out


def test_the_log_reader_follows_the_runner(tmp_path):
    lines = [
        f"{STAMP}##[group]Run ./login.sh",
        f"{STAMP}::add-mask::Kept0secret",
        f"{STAMP}echo ::add-mask::Shown0word",
        f"{STAMP}Error: authentication failed for token Kept0secret and Shown0word",
        f"{STAMP}##[error]Process completed with exit code 1.",
    ]
    log = tmp_path / "job.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "repopilot", "context", "--assume-failed", str(log)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Kept0secret" not in out
    assert "4| Error: authentication failed for token [REDACTED:add-mask] and Shown0word" in out
