"""Issue 23: one statement per fact in the comment, line numbers as the log viewer shows them,
and a next step at the end of every failure's section that fits its origin and verdict. Bodies are
rendered from real triage of composed logs and parsed with markdown-it-py as GitHub renders them."""

from __future__ import annotations

import hashlib
import re

import pytest
from markdown_it import MarkdownIt

from repopilot import pipeline
from repopilot.comment.render import CommentContext, render
from repopilot.comment.sections import JobReport
from repopilot.records import Evidence, Verdict
from repopilot.run_records import OriginVerdict, Proposal, TriageResult, Usage
from tests.adoption_logs import pytest_log, unknown_log

pytestmark = pytest.mark.unit
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
HEAD = "0123456789abcdef0123456789abcdef01234567"
RUN = "https://github.com/octo/app/actions/runs/42"
BASE_RUN = "https://github.com/octo/app/actions/runs/312"
RERUN = "https://github.com/octo/app/actions/runs/42/attempts/1"
NAMES = ["test (3.10)", "test (3.11)", "test (3.12)", "test (3.13)"]


def tokens(body: str):
    for tok in MD.parse(body):
        yield tok
        yield from tok.children or ()


def visible(body: str) -> str:
    return "\n".join(t.content for t in tokens(body) if t.type in ("text", "code_inline", "fence"))


def links(body: str) -> list[tuple[str, str]]:
    """(link text, href) for every link."""
    out, stack = [], []
    for tok in tokens(body):
        if tok.type == "link_open":
            stack.append((tok.attrs["href"], []))
        elif tok.type == "link_close":
            href, parts = stack.pop()
            out.append(("".join(parts), href))
        elif stack and tok.type in ("text", "code_inline"):
            stack[-1][1].append(tok.content)
    return out


def last_paragraph(body: str) -> str:
    """The text of the body's last paragraph (what the reader ends on)."""
    toks = list(MD.parse(body))
    opens = [i for i, t in enumerate(toks) if t.type == "paragraph_open"]
    inline = toks[opens[-1] + 1]
    return "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))


@pytest.fixture(scope="module")
def triaged(tmp_path_factory):
    classifier = pipeline.load_classifier()
    out = {}
    for name, log in (("pytest", pytest_log()), ("unknown", unknown_log())):
        tmp = tmp_path_factory.mktemp(name)
        path = tmp / "job.log"
        path.write_bytes(log)
        [out[name]] = pipeline.triage(str(path), tmp, classifier=classifier, trace_dir=tmp)
    return out


def origin(kind: str) -> OriginVerdict:
    run = 311 if kind == "this_pr" else 312
    return OriginVerdict(
        origin=kind,  # type: ignore[arg-type]
        reason={"flaky": "it passed on a re-run", "infra": "the runner lost its connection"}.get(
            kind, "compared with main"
        ),
        base_branch="main",
        base_run_number=run,
        base_run_url=f"https://github.com/octo/app/actions/runs/{run}",
        rerun_url=RERUN,
    )


def report(result: TriageResult, name: str, job: int = 7) -> JobReport:
    return JobReport(name=name, html_url=f"{RUN}/job/{job}", result=result, step_number=4)


def ctx(**kw) -> CommentContext:
    return CommentContext(repo="octo/app", run_id=42, head_sha=HEAD, pr_number=9, run_url=RUN, **kw)


def test_four_identical_jobs_say_each_fact_once(triaged) -> None:
    result = triaged["pytest"].model_copy(update={"origin": origin("this_pr")})
    body = render([report(result, n, 10 + i) for i, n in enumerate(NAMES)], ctx())
    text = visible(body)
    key = result.verdict.evidence[0].text
    assert text.count(key) == 1, "the key line once (no table rows repeating it)"
    for name in NAMES:
        assert text.count(name) == 1, f"{name} named once"
    assert len([t for t in tokens(body) if t.type == "heading_open" and t.tag == "h4"]) == 1
    assert "(4 jobs): test failure" in body
    hrefs = [h for _, h in links(body)]
    for i in range(4):
        assert any(h.startswith(f"{RUN}/job/{10 + i}#step:4:") for h in hrefs), "each job linked"
    assert text.count("caused by the changes in this pull request") == 1, "origin once"
    assert "Run it locally" in last_paragraph(body)  # the next step: the pattern's local command
    assert "| Job |" not in body  # one failure: no table to repeat the section


def test_the_link_text_and_the_gutter_use_the_viewers_numbers(triaged) -> None:
    body = render([report(triaged["pytest"], "test")], ctx())
    key_links = [(t, h) for t, h in links(body) if t.startswith("step ")]
    [(label, href)] = key_links
    step, line = re.fullmatch(r"step (\d+), line (\d+)", label).groups()  # type: ignore[union-attr]
    assert href.endswith(f"#step:{step}:{line}"), "the text says what the click opens"
    [context] = [t.content for t in tokens(body) if t.type == "fence" and t.info == "text"]
    marked = [row for row in context.splitlines() if row.startswith(">")]
    assert marked == [f"> {line} | {triaged['pytest'].verdict.evidence[0].text}"]
    absolute = triaged["pytest"].verdict.evidence[0].line
    assert int(line) < absolute  # in-step, not the downloaded file's line


def test_without_a_step_number_the_files_line_is_shown(triaged) -> None:
    job = JobReport(name="t", html_url=f"{RUN}/job/7", result=triaged["pytest"])
    body = render([job], ctx())
    absolute = triaged["pytest"].verdict.evidence[0].line
    assert (f"line {absolute}", f"{RUN}/job/7") in links(body)


def test_the_fix_commands_once_and_they_end_the_comment(triaged) -> None:
    diff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    sha = hashlib.sha256(diff.encode()).hexdigest()
    prop = Proposal(id="fix-0001", diff=diff, sha256=sha, files=("a.py",), confidence=0.8)
    result = triaged["pytest"].model_copy(update={"proposal": prop, "origin": origin("this_pr")})
    usage = Usage(llm_calls=1, tool_calls=1, prompt_tokens=10, completion_tokens=5)
    body = render([report(result, "test")], ctx(usage=usage))
    text = visible(body)
    assert text.count("/repopilot apply fix-0001") == 1
    assert text.count("/repopilot reject fix-0001") == 1
    assert "1 call, 15 tokens" in text and "1 tool call" in text and "1 calls" not in text
    assert last_paragraph(body).startswith("Next step:")
    assert "/repopilot apply fix-0001" in last_paragraph(body)


def test_unknown_says_what_to_read_and_how_to_ask_the_llm(triaged) -> None:
    body = render([report(triaged["unknown"], "release")], ctx())
    end = last_paragraph(body)
    assert end.startswith("Next step:") and "read the lines above" in end
    assert "llm" in end and "REPOPILOT_LLM=openai repopilot triage" in end
    skipped = render([report(triaged["unknown"], "release")], ctx(llm_skipped="no API key"))
    assert "once that is fixed, re-run" in last_paragraph(skipped)


def test_base_branch_says_rebase_once_fixed_and_not_run_it_locally(triaged) -> None:
    result = triaged["pytest"].model_copy(update={"origin": origin("base_branch")})
    body = render([report(result, "test")], ctx())
    end = last_paragraph(body)
    assert end.startswith("Next step:") and "rebase this branch" in end
    assert "git pull --rebase origin main" in end
    assert ("run #312", BASE_RUN) in links(body)
    assert "Run it locally" not in body and "locally" not in visible(body)


@pytest.mark.parametrize("kind", ["flaky", "infra"])
def test_flaky_and_infra_end_with_a_rerun_link(triaged, kind) -> None:
    result = triaged["pytest"].model_copy(update={"origin": origin(kind)})
    body = render([report(result, "test")], ctx())
    assert last_paragraph(body).startswith("Next step:")
    assert ("re-run the failed jobs", RERUN) in links(body)
    assert visible(body).count("re-run the failed jobs") == 1


def test_infra_category_without_origin_reruns_the_run() -> None:
    v = Verdict(
        source="x",
        category="runner_infra",
        confidence=0.9,
        decided_by="pattern",
        pattern_id="gha.runner.lost",
        title="The runner lost communication with the server",
        evidence=(Evidence(line=3, text="The runner has received a shutdown signal."),),
    )
    body = render([report(TriageResult(verdict=v), "build")], ctx())
    assert ("re-run the failed jobs", RUN) in links(body)
    assert last_paragraph(body).startswith("Next step:")


def test_mixed_origins_keep_one_origin_line_per_section(triaged) -> None:
    ours = triaged["pytest"].model_copy(update={"origin": origin("this_pr")})
    theirs = triaged["unknown"].model_copy(update={"origin": origin("base_branch")})
    body = render([report(ours, "test", 1), report(theirs, "release", 2)], ctx())
    text = visible(body)
    assert "Part of this looks caused" in text
    assert text.count("Origin: this pull request") == 1
    assert text.count("Origin: base branch") == 1
    rows = [t for t in MD.parse(body) if t.type == "tr_open"]
    assert len(rows) == 3
