"""Response bodies of the loopback GitHub server, built from the fixture shapes in
tests/fixtures/github/ with their URLs pointing back at the server."""

from __future__ import annotations

import copy
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "github"


def shaped(name: str, state, /, **overrides) -> dict:
    """A fixture body with its GitHub URLs rebased onto the loopback server, plus `overrides`."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    text = text.replace("https://api.github.com", state.api).replace(
        "https://github.com", state.api
    )
    body = json.loads(text)
    if overrides:
        body.update(copy.deepcopy(overrides))
    return body


def user_obj(state, login: str, type_: str = "User") -> dict:
    return {
        "login": login,
        "id": abs(hash(login)) % 10**8,
        "type": type_,
        "site_admin": False,
        "url": f"{state.api}/users/{login}",
        "html_url": f"{state.api}/{login}",
    }


def repo_obj(state, full: str) -> dict:
    owner, name = full.split("/")
    return {
        "id": abs(hash(full)) % 10**8,
        "name": name,
        "full_name": full,
        "private": False,
        "owner": user_obj(state, owner),
        "fork": full != state.full_name,
        "url": f"{state.api}/repos/{full}",
        "html_url": f"{state.api}/{full}",
        "default_branch": "main",
    }


def pr_shape(state, pr: dict) -> dict:
    full, n = state.full_name, pr["number"]

    def side(ref, sha, repo):
        return {
            "label": f"{repo.split('/')[0]}:{ref}",
            "ref": ref,
            "sha": sha,  # noqa: E731
            "user": user_obj(state, repo.split("/")[0]),
            "repo": repo_obj(state, repo),
        }

    return shaped(
        "pull-request.json",
        state,
        number=n,
        id=n * 7,
        state=pr.get("state", "open"),
        url=f"{state.api}/repos/{full}/pulls/{n}",
        html_url=f"{state.api}/{full}/pull/{n}",
        issue_url=f"{state.api}/repos/{full}/issues/{n}",
        comments_url=f"{state.api}/repos/{full}/issues/{n}/comments",
        head=side(pr["head_ref"], pr["head_sha"], pr["head_repo"]),
        base=side(pr.get("base_ref", "main"), pr.get("base_sha", "0" * 40), full),
        maintainer_can_modify=pr.get("maintainer_can_modify", False),
    )


def comment_shape(state, c: dict) -> dict:
    full = state.full_name
    return shaped(
        "issue-comment.json",
        state,
        id=c["id"],
        body=c["body"],
        user=user_obj(state, c["login"], c["type"]),
        url=f"{state.api}/repos/{full}/issues/comments/{c['id']}",
        html_url=f"{state.api}/{full}/pull/{c['issue']}#issuecomment-{c['id']}",
        issue_url=f"{state.api}/repos/{full}/issues/{c['issue']}",
    )
