"""Specialising never turns a redaction mark into literal text (issue 28 item 1): a token-like run
of the line is redacted before the pattern is written, so the mark stands for text the pattern
must not hold; when the generalised line takes another line of its own log, another class (here
the line number) becomes literal instead, and the pattern still matches the line it came from.
Before: the mark was made literal first (it takes no other line) and the pattern no longer
matched its own line ("redaction changed its shape")."""

from __future__ import annotations

import pytest

from repopilot.engine.learn.learner import LearnRequest, learn
from repopilot.engine.library.layers import layered
from tests.engine.learn.test_generalise import _log, _n, _verdict, library

__all__ = ["library"]  # the module fixture, shared

pytestmark = pytest.mark.unit

# A build directory whose name mixes case and digits: scrubbed as token-like before learning.
EARLIER = "/src/build/Qz8abcdefghijklmnop/Other.hs:12:3: error:"
CAUSE = "/src/build/Xy9abcdefghijklmnop/Main.hs:95:51: error:"


def test_a_redacted_run_is_never_made_literal(tmp_path, library):
    log = _log(
        tmp_path, "a.log", [EARLIER, "    Not in scope: 'foo'", CAUSE, "    Not in scope: 'bar'"]
    )
    got = learn(LearnRequest(str(log), _n(log, CAUSE), "compile_error"), library)
    regex = got.pattern.spec.regex
    assert "REDACTED" not in regex
    v = _verdict(layered(library, [got.pattern]), log)
    assert v.pattern_id == got.id and v.evidence[0].line == _n(log, CAUSE)
