"""The pipeline over the shared corpus of real CI logs, with a scripted model.

Asserts zero LLM calls for every failure the patterns decide, and that the first prompt of every
escalation stays small: the evidence window within its 6,000-token budget. The sizes are printed
(run with `-s`) and kept in tests' output as the figures the issue asks for.
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import pytest

from repopilot.evidence.window import DEFAULT_BUDGET, estimate_tokens
from repopilot.llm.base import ChatResponse
from repopilot.llm.scripted import ScriptedLLM
from repopilot.pipeline import Escalation, should_escalate, triage

pytestmark = pytest.mark.corpus
SYSTEM_SLACK = 2500  # the system prompt and the goal's frame around the window, in tokens
ANSWER = '{"diagnosis": "scripted diagnosis", "category": "other", "confidence": 0.1}'


def corpus_logs(corpus: Path) -> list[Path]:
    gha = sorted((corpus / "gha" / "logs").glob("*.log"))
    csv.field_size_limit(1 << 30)
    with open(corpus / "logchunks" / "chunks.csv", newline="", encoding="utf-8") as fh:
        chunks = [corpus / "logchunks" / "logs" / r["log"] for r in csv.DictReader(fh)]
    # every fifth LogChunks log keeps the run short while covering all 26 languages
    return gha + sorted(set(chunks))[::5]


def test_patterns_decide_without_llm_calls_and_first_prompts_stay_small(
    tmp_path, corpus, corpus_classifier, corpus_classify
):
    decided = escalated = 0
    first_prompts: list[int] = []
    windows: list[int] = []
    for log in corpus_logs(corpus):
        # the deterministic verdicts, from the session's one classification of the corpus
        verdicts = corpus_classify(log)
        expect = [should_escalate(v, "auto") for v in verdicts]
        llm = ScriptedLLM([ChatResponse(text=ANSWER)] * 2)
        results = triage(
            str(log), tmp_path, Escalation(llm), classifier=corpus_classifier, trace_dir=tmp_path
        )
        assert [r.escalated for r in results] == expect, log
        if not any(expect):
            assert llm.calls == [], f"{log}: LLM asked for a pattern-decided failure"
            decided += sum(v.failed for v in verdicts)
            continue
        asked = [r for r in results if r.escalated]
        escalated += len(asked)
        first = llm.calls[0].messages
        first_prompts.append(sum(estimate_tokens(m.content) for m in first))
        goal = first[1].content
        window = goal[goal.index("evidence window") :]
        windows.append(estimate_tokens(window))
        assert first_prompts[-1] <= DEFAULT_BUDGET + SYSTEM_SLACK, log
    assert decided > 0 and escalated > 0
    print(
        f"\ncorpus triage: {decided} failures decided by patterns with 0 LLM calls; "
        f"{escalated} escalated. First prompt (system + goal), estimated tokens: "
        f"median {statistics.median(first_prompts):.0f}, max {max(first_prompts)}; "
        f"window part: median {statistics.median(windows):.0f}, max {max(windows)}"
    )
