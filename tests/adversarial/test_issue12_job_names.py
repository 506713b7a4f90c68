"""Issue 12, item 4: job names are attacker text (a fork's workflow names its jobs). The step
summary renders and redacts them like log text (no image, HTML, link or mention; no token), and
the analyze result file (an artifact) holds no token either.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from markdown_it import MarkdownIt

from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

RNG = random.Random(4)
TOKEN = "ghp_" + "".join(RNG.choice("abcdefghijkLMNOPQ0123456789") for _ in range(36))
NAME = (
    f"test @octo-org/maintainers ![x](https://evil.example/p.png) <img src=x> "
    f"[click](https://evil.example) | {TOKEN} #12 GH-3"
)
MD = MarkdownIt("commonmark").enable(["table"])
LIVE = re.compile(r"(?<![\w`])(?:@[A-Za-z0-9]|#[0-9]|GH-[0-9])")


def _problems(markdown: str) -> list[str]:
    out = []
    for tok in MD.parse(markdown):
        for t in [tok, *(tok.children or ())]:
            if t.type in ("image", "html_inline", "html_block", "link_open"):
                out.append(t.type)
            if t.type == "text" and LIVE.search(t.content):
                out.append(f"live: {t.content}")
    return out


@pytest.mark.parametrize("mode", ["all", "analyze"])
def test_a_hostile_job_name_is_inert_and_redacted(tmp_path, mode):
    state = State(bot=BOT)
    result = tmp_path / "result.json"
    with GitHubServer(state) as server:
        facts = seed(state)
        state.runs[555]["jobs"][1]["name"] = NAME
        run = run_action(
            tmp_path / "run",
            server.url,
            "workflow_run",
            run_event(facts),
            mode=mode,
            result_file=str(result),
        )
    assert run.returncode == 0, run.stderr
    table = run.summary[run.summary.index("| Job |") :]
    assert "evil.example" in table, "the name is shown, as text"
    assert TOKEN not in run.summary and _problems(table) == [], _problems(table)
    rows = [line for line in table.splitlines() if line.startswith("|")]
    assert len({line.count("|") - line.count("\\|") for line in rows}) == 1, "no cell split"
    if mode == "analyze":
        text = result.read_text()
        assert TOKEN not in text and "[REDACTED:github-token]" in text
        assert json.loads(text)["jobs"][0]["name"].startswith("test @octo-org")
