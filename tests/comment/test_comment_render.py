"""render(): what the PR comment shows, that untrusted text stays inert, and that it always fits.

Markdown is checked by parsing the rendered body with markdown-it-py (CommonMark plus GFM tables
and strikethrough), not by string matching: a diff must come back as the content of exactly one
fence token, and no text token may hold a live `@mention`.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from repopilot.comment import markdown as md
from repopilot.comment.markdown import MAX_BODY, body_size
from repopilot.comment.marker import extract_diff, parse_marker, verify_marker
from repopilot.comment.render import CommentContext, looks_like_pr_fault, render
from repopilot.comment.sections import JobReport, withheld_reason
from repopilot.records import Evidence, Verdict
from repopilot.run_records import Proposal, Rejection, TriageResult, Usage

pytestmark = pytest.mark.unit

HEAD = "0123456789abcdef0123456789abcdef01234567"
JOB_URL = "https://github.com/octo/app/actions/runs/42/job/7"
MENTION = re.compile(r"(?:^|[^\w`])@[A-Za-z0-9]")
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
OUR_HTML = re.compile(
    r"<!-- repopilot:[^\n]* -->|<!-- /?repopilot-(?:status|digest) -->"
    r"|<!-- repopilot-cmd:[a-z0-9-]+ -->|<!-- /repopilot-cmd -->"
    r"|<details>\n<summary>How this was decided</summary>|</details>",
    re.S,
)


def proposal(diff: str, pid: str = "fix-0001", diagnosis: str = "Off by one.") -> Proposal:
    sha = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    return Proposal(
        id=pid, diff=diff, sha256=sha, files=("app.py",), diagnosis=diagnosis, confidence=0.8
    )


def verdict(category: str = "test_failure", **kw) -> Verdict:
    base = dict(
        source="job.log",
        category=category,
        confidence=0.9,
        decided_by="pattern",
        pattern_id="python.pytest.failed-test",
        title="pytest: 1 test failed",
        hint="Run the test locally.",
        evidence=(Evidence(line=120, text="FAILED tests/test_app.py::test_add"),),
        context=tuple(
            Evidence(line=n, text="FAILED tests/test_app.py::test_add" if n == 120 else f"log {n}")
            for n in range(110, 131)
        ),
        step_lines=(100, 200),
    )
    base.update(kw)
    return Verdict(**base)


def job(result: TriageResult, name: str = "test (3.11)", step: int | None = 4) -> JobReport:
    return JobReport(name=name, html_url=JOB_URL, result=result, step_number=step)


def ctx(**kw) -> CommentContext:
    base = dict(repo="octo/app", run_id=42, head_sha=HEAD, pr_number=9)
    base.update(kw)
    return CommentContext(**base)


def tokens(body: str):
    for tok in MD.parse(body):
        yield tok
        yield from tok.children or ()


def fences(body: str, info: str) -> list[str]:
    return [t.content for t in tokens(body) if t.type == "fence" and t.info.strip() == info]


def shown(diff: str) -> str:
    """What a CommonMark fence shows of `diff`: line endings normalized, a final newline."""
    text = diff.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def assert_inert(body: str) -> None:
    for tok in tokens(body):
        assert tok.type != "image", tok
        assert tok.type != "html_inline", tok.content
        if tok.type == "html_block":
            assert OUR_HTML.fullmatch(tok.content.strip()), tok.content
        if tok.type == "text":
            assert not MENTION.search(tok.content), tok.content
        if tok.type == "link_open":
            assert tok.attrs["href"].startswith("https://github.com/octo/app/"), tok.attrs


# --- typical comments -------------------------------------------------------------------------

DIFF = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n y = 3\n"


def test_test_failure_with_proposal() -> None:
    result = TriageResult(
        verdict=verdict(), diagnosis="x must be 2", escalated=True, proposal=proposal(DIFF)
    )
    body = render(
        [job(result)], ctx(usage=Usage(llm_calls=2, prompt_tokens=900, completion_tokens=100))
    )
    assert body.startswith("<!-- repopilot:")
    assert "1 failed job in" in body and "The failure is in the code" in body
    assert "caused by" not in body  # without an origin the category alone never blames the PR
    assert "test failure" in body and "pytest\\: 1 test failed" in body
    # evidence linked to its line inside step 4 (line 120 of a step starting at line 100)
    links = [t.attrs["href"] for t in tokens(body) if t.type == "link_open"]
    assert f"{JOB_URL}#step:4:21" in links
    assert fences(body, "diff") == [DIFF]
    assert "`/repopilot apply fix-0001`" in body and "`/repopilot reject fix-0001`" in body
    assert "confidence 80%" in body
    assert "<details>" in body and "2 calls, 1,000 tokens" in body
    context = fences(body, "text")[0]
    assert "> 21 | FAILED tests/test_app.py::test_add" in context  # as the log viewer numbers it
    assert "[step 4, line 21](<" in body  # the link text says what the link opens
    assert len(context.splitlines()) == 14  # CONTEXT_LINES
    marker = parse_marker(body)
    assert (
        marker is not None and marker.run_id == 42 and marker.pr == 9 and marker.repo == "octo/app"
    )
    (p,) = marker.proposals
    assert (p.id, p.head_sha, p.status) == ("fix-0001", HEAD, "proposed")
    assert extract_diff(body, "fix-0001") == DIFF
    assert_inert(body)


def test_infra_failure_gets_advice_only() -> None:
    v = verdict(
        "network",
        pattern_id="net.reset",
        title="Connection reset by peer",
        hint="Re-run the job; the registry dropped the connection.",
        evidence=(Evidence(line=5, text="curl: (56) Recv failure: Connection reset by peer"),),
        context=(),
        step_lines=None,
    )
    body = render([job(TriageResult(verdict=v), name="deps", step=None)], ctx())
    assert "does not look caused by this pull request" in body
    assert "infrastructure: advice only" in body
    assert "Re\\-run the job" in body
    assert fences(body, "diff") == [] and "/repopilot apply" not in body
    assert parse_marker(body).proposals == ()
    assert [t.attrs["href"] for t in tokens(body) if t.type == "link_open"][1] == JOB_URL


def test_several_jobs_and_a_shared_proposal() -> None:
    same = proposal(DIFF)
    jobs = [
        job(TriageResult(verdict=verdict(), proposal=same), name="test (3.11)"),
        job(TriageResult(verdict=verdict(), proposal=same), name="test (3.12)"),
        job(
            TriageResult(verdict=verdict("unknown", decided_by="none", pattern_id=None, title="")),
            name="lint",
        ),
    ]
    body = render(jobs, ctx())
    assert "3 failed jobs" in body
    assert [t.content for t in tokens(body) if t.type == "code_inline"].count("test (3.12)") >= 1
    assert fences(body, "diff") == [DIFF]  # shown once
    assert "(2 jobs): test failure" in body  # identical jobs are one section
    names = [t.content for t in tokens(body) if t.type == "code_inline"]
    assert names.count("test (3.11)") == 2  # once in the table, once in the section
    assert len(parse_marker(body).proposals) == 1
    assert "no pattern recognizes this failure and no LLM was asked" in body


def test_redaction_and_refused_proposals_are_reported() -> None:
    token = "ghp_" + "A1b2C3d4" * 5
    v = verdict(evidence=(Evidence(line=120, text=f"auth failed for {token}"),))
    result = TriageResult(
        verdict=v, rejected=(Rejection(reason="protected-path", detail=".github/x.yml"),)
    )
    body = render([job(result)], ctx())
    assert token not in body and "[REDACTED:github-token]" in body
    assert "Secrets redacted from the quoted text: 1" in body
    assert "protected\\-path" in body


def test_diff_with_a_secret_or_bidi_is_withheld() -> None:
    for bad in ("+key = 'ghp_" + "Z9y8X7w6" * 5 + "'\n", "+ok = 1 \u202e# evil\n"):
        diff = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x\n" + bad
        body = render([job(TriageResult(verdict=verdict(), proposal=proposal(diff)))], ctx())
        assert "is not offered here" in body and fences(body, "diff") == []
        assert parse_marker(body).proposals == () and extract_diff(body, "fix-0001") is None


def test_hmac_signed_and_previous_status_kept() -> None:
    result = TriageResult(verdict=verdict(), proposal=proposal(DIFF))
    first = render([job(result)], ctx(signing_key="s3cret"))
    marker = parse_marker(first)
    assert verify_marker(marker, "s3cret") and not verify_marker(marker, "other")
    assert not verify_marker(marker.model_copy(update={"run_id": 43}), "s3cret")
    assert "s3cret" not in first
    rejected = marker.model_copy(
        update={"proposals": (marker.proposals[0].model_copy(update={"status": "rejected"}),)}
    )
    again = render([job(result)], ctx(previous=rejected))
    assert parse_marker(again).proposals[0].status == "rejected"
    assert "Fix `fix-0001`: rejected" in again and "**Rejected** by a maintainer" in again


def test_llm_usage_line() -> None:
    plain = TriageResult(verdict=verdict())
    asked = TriageResult(verdict=verdict(), escalated=True)
    assert "LLM usage" not in render([job(plain)], ctx())  # "without an LLM" says it
    assert "LLM usage: not recorded" in render([job(asked)], ctx())
    used = Usage(llm_calls=3, tool_calls=4, prompt_tokens=1200, completion_tokens=34)
    assert "3 calls, 1,234 tokens (prompt 1,200, completion 34), 4 tool calls" in render(
        [job(asked)], ctx(usage=used)
    )


def test_pr_fault_from_verdicts() -> None:
    code, infra = TriageResult(verdict=verdict()), TriageResult(verdict=verdict("runner_infra"))
    unknown = TriageResult(verdict=verdict("unknown", decided_by="none"))
    assert looks_like_pr_fault([infra, code]) is True
    assert looks_like_pr_fault([infra]) is False
    assert looks_like_pr_fault([unknown]) is None
    quiet = render([job(unknown)], ctx())
    assert "caused" not in quiet and "could not tell" not in quiet  # nothing to say: say nothing


# --- size ---------------------------------------------------------------------------------------


def big_diff(i: int, size: int) -> str:
    lines = "".join(f"+line {i} {n} {'x' * 60}\n" for n in range(size // 70))
    return f"--- a/f{i}.py\n+++ b/f{i}.py\n@@ -0,0 +1,{size // 70} @@\n{lines}"


def test_large_proposals_are_dropped_largest_first_and_marker_stays_whole() -> None:
    jobs = [
        job(
            TriageResult(
                verdict=verdict(), proposal=proposal(big_diff(i, 30_000 + i * 1000), f"fix-{i:04d}")
            ),
            name=f"j{i}",
        )
        for i in range(6)
    ]
    body = render(jobs, ctx())
    assert body_size(body) <= MAX_BODY
    marker = parse_marker(body)
    kept = {p.id for p in marker.proposals}
    assert kept and "fix-0005" not in kept  # the largest went first
    for p in marker.proposals:
        diff = extract_diff(body, p.id)
        assert hashlib.sha256(diff.encode()).hexdigest() == p.sha256
        assert shown(diff) in fences(body, "diff")
    assert body.count("does not fit in a comment") == 6 - len(kept)


def test_thousands_of_jobs_still_fit() -> None:
    long = "E" * 5000
    v = verdict(title=long, hint=long, evidence=(Evidence(line=1, text=long),))
    jobs = [
        job(TriageResult(verdict=v.model_copy(update={"title": f"{i} {long}"})), name=f"m {i}")
        for i in range(1000)
    ]
    body = render(jobs, ctx())
    assert body_size(body) <= MAX_BODY
    assert parse_marker(body) is not None
    assert re.search(r"and \d+ more failures", body)


# --- properties -------------------------------------------------------------------------------


def pieces(items: list[str], max_size: int) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(items), max_size=max_size).map("".join)


hostile = pieces(
    list("ab @#`~<>!-[]()*_|\\&;:/.\n\r\t 0123456789")
    + ["<!--", "-->", "```", "~~~", "@octo", "![i](http://x/i.png)", "<img src=x>", "&#64;"]
    + ["\u200b", "\u202e", "é", "😀", "<!-- repopilot:{} -->", "<details>", "\n    ", "#12"],
    120,
)
diffs = pieces(
    list("+- @x`~<>!\n\r\t\\")
    + ["```", "````", "<!--", "-->", "  \n", "\r\n", "~~~", "\\ No newline at end of file\n"],
    120,
).filter(bool)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(diff=diffs, name=hostile, title=hostile, hint=hostile, line=hostile, diagnosis=hostile)
def test_property_untrusted_text_stays_inert_and_the_diff_round_trips(
    diff: str, name: str, title: str, hint: str, line: str, diagnosis: str
) -> None:
    p = proposal(diff, diagnosis=diagnosis)
    v = verdict(
        title=title,
        hint=hint,
        evidence=(Evidence(line=120, text=line),),
        context=(Evidence(line=119, text=line), Evidence(line=120, text=line + "`")),
    )
    body = render(
        [job(TriageResult(verdict=v, diagnosis=diagnosis, proposal=p), name=name)],
        ctx(signing_key="k"),
    )
    assert body_size(body) <= MAX_BODY
    assert_inert(body)
    marker = parse_marker(body)
    assert marker is not None and verify_marker(marker, "k")
    if withheld_reason(p) is None:
        assert fences(body, "diff") == [shown(diff)]
        assert extract_diff(body, p.id) == diff
        assert marker.proposals[0].sha256 == hashlib.sha256(diff.encode()).hexdigest()
    else:
        assert fences(body, "diff") == [] and marker.proposals == ()


@SETTINGS
@given(value=hostile)
def test_property_escaped_text_displays_as_written(value: str) -> None:
    """Escaping changes what Markdown does, not what the reader sees (bar the defused @ and #)."""
    flat = " ".join(re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", value).split())
    expected = re.sub(r"#(?=[0-9])", "\uff03", re.sub(r"@(?=\w)", "\uff20", flat, flags=re.A))
    (inline,) = MD.parseInline(md.text(value, 10_000))
    assert all(t.type == "text" for t in inline.children)
    assert "".join(t.content for t in inline.children) == expected


@SETTINGS
@given(value=hostile)
def test_property_prose_with_code_spans_is_only_text_and_code(value: str) -> None:
    for block in MD.parse(md.prose(value, code=True)):
        assert block.type in ("paragraph_open", "paragraph_close", "inline"), block.type
        for tok in block.children or ():
            assert tok.type in ("text", "code_inline", "softbreak"), tok.type
            if tok.type == "text":
                assert not MENTION.search(tok.content)
