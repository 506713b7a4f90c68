"""Shared helpers for the agent, tools and trace tests (no tests here).

Real parts only: git on temporary repositories, the scripted provider that ships in the package,
and TraceWriter writing into tmp_path.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from repopilot.llm.base import ChatResponse, TokenUsage, ToolCall

CANARY = "ghp_" + "C4NARYc4naryC4NARYc4naryC4NARY123456"


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo),
        "PATH": "/usr/local/bin:/usr/bin:/bin",
    }
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env, check=True)
    return out.stdout.decode()


def make_repo(root: Path) -> Path:
    """A repo with a `main` base and a PR commit on top (HEAD) that breaks `src/calc.py`."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    (root / "src").mkdir()
    (root / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_calc.py").write_text(
        "from src.calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n"
    )
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (root / "README.md").write_text("calc\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base: calc")
    git(root, "checkout", "-q", "-b", "pr")
    (root / "src" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(root, "commit", "-q", "-am", "pr: refactor add")
    return root


def call(name: str, call_id: str = "c1", **arguments) -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments=arguments)


def reply(*calls: ToolCall, text: str = "", tokens: tuple[int, int] = (100, 10)) -> ChatResponse:
    return ChatResponse(
        text=text,
        tool_calls=calls,
        usage=TokenUsage(prompt_tokens=tokens[0], completion_tokens=tokens[1]),
    )


def answer(diagnosis: str = "add subtracts", category: str = "test_failure", conf=0.8):
    payload = {"diagnosis": diagnosis, "category": category, "confidence": conf}
    return reply(text=json.dumps(payload))


def sent_text(llm) -> str:
    """Everything the scripted model received, as one string (for canary checks)."""
    parts = []
    for c in llm.calls:
        for m in c.messages:
            parts.append(m.content)
            parts.extend(json.dumps(t.arguments) for t in m.tool_calls)
    return "\n".join(parts)


FIX_DIFF = """\
--- a/src/calc.py
+++ b/src/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
"""

WORKFLOW_DIFF = """\
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -1,2 +1,2 @@
 on: push
-jobs: {}
+jobs: {evil: {}}
"""


def policy_validator(repo: Path):
    """A small real validator for the loop's seam until repopilot.proposal is used: refuses
    `.github/` paths and anything `git apply --check` refuses, else returns a Proposal."""
    import hashlib

    from repopilot.run_records import Proposal, Rejection

    def validate(diff: str):
        files = tuple(line[6:].strip() for line in diff.splitlines() if line.startswith("+++ b/"))
        if any(f.startswith(".github/") for f in files):
            return Rejection(reason="protected-path", detail=f"{files[0]} is protected")
        proc = subprocess.run(
            ["git", "-C", str(repo), "apply", "--check", "-"],
            input=diff.encode(),
            capture_output=True,
        )
        if proc.returncode != 0:
            return Rejection(reason="does-not-apply", detail=proc.stderr.decode()[:200])
        digest = hashlib.sha256(diff.encode()).hexdigest()
        return Proposal(id="fix-" + digest[:8], diff=diff, sha256=digest, files=files)

    return validate
