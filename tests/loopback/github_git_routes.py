"""Git Database routes of the loopback GitHub server (blobs, trees, commits, refs)."""

from __future__ import annotations

import base64

R = r"/repos/([^/]+/[^/]+)"


def _commit_shape(state, full, sha):
    c = state.git.commits[sha]
    url = f"{state.api}/repos/{full}/git/commits"
    who = {"name": "t", "email": "t@t", "date": "2026-01-01T00:00:00Z"}
    return {
        "sha": sha,
        "node_id": sha,
        "url": f"{url}/{sha}",
        "html_url": f"{state.api}/{full}/commit/{sha}",
        "author": who,
        "committer": who,
        "message": c.message,
        "tree": {"sha": c.tree, "url": f"{state.api}/repos/{full}/git/trees/{c.tree}"},
        "parents": [
            {"sha": p, "url": f"{url}/{p}", "html_url": f"{state.api}/{full}/commit/{p}"}
            for p in c.parents
        ],
        "verification": {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
        },
    }


def _tree_shape(state, full, sha):
    entries = [
        {
            "path": n,
            "mode": mo,
            "type": t,
            "sha": s,
            "url": f"{state.api}/repos/{full}/git/{t}s/{s}",
        }
        for n, (mo, t, s) in sorted(state.git.trees[sha].items())
    ]
    return {
        "sha": sha,
        "url": f"{state.api}/repos/{full}/git/trees/{sha}",
        "tree": entries,
        "truncated": False,
    }


def _ref_shape(state, full, branch):
    sha = state.refs[full][branch]
    return {
        "ref": f"refs/heads/{branch}",
        "node_id": "x",
        "url": f"{state.api}/repos/{full}/git/refs/heads/{branch}",
        "object": {
            "type": "commit",
            "sha": sha,
            "url": f"{state.api}/repos/{full}/git/commits/{sha}",
        },
    }


def get_commit(state, m, q, b):
    if m[2] not in state.git.commits:
        return 404, {"message": "Not Found"}, {}
    return 200, _commit_shape(state, m[1], m[2]), {}


def get_tree(state, m, q, b):
    if m[2] not in state.git.trees:
        return 404, {"message": "Not Found"}, {}
    return 200, _tree_shape(state, m[1], m[2]), {}


def get_blob(state, m, q, b):
    data = state.git.blobs.get(m[2])
    if data is None:
        return 404, {"message": "Not Found"}, {}
    return (
        200,
        {
            "sha": m[2],
            "node_id": m[2],
            "size": len(data),
            "encoding": "base64",
            "url": f"{state.api}/repos/{m[1]}/git/blobs/{m[2]}",
            "content": base64.encodebytes(data).decode(),
        },
        {},
    )


def create_blob(state, m, q, b):
    raw = base64.b64decode(b["content"]) if b.get("encoding") == "base64" else b["content"].encode()
    sha = state.git.put_blob(raw)
    return 201, {"sha": sha, "url": f"{state.api}/repos/{m[1]}/git/blobs/{sha}"}, {}


def create_tree(state, m, q, b):
    base = b.get("base_tree")
    if base and base not in state.git.trees:
        return 422, {"message": "base_tree is not a valid tree"}, {}
    sha = state.git.update_tree(base, b["tree"])
    return 201, _tree_shape(state, m[1], sha), {}


def create_commit(state, m, q, b):
    if b["tree"] not in state.git.trees or any(
        p not in state.git.commits for p in b.get("parents", [])
    ):
        return 422, {"message": "Tree SHA does not exist"}, {}
    sha = state.git.put_commit(b["tree"], b.get("parents", []), b["message"])
    return 201, _commit_shape(state, m[1], sha), {}


def get_ref(state, m, q, b):
    if m[2] not in state.refs.get(m[1], {}):
        return 404, {"message": "Not Found"}, {}
    return 200, _ref_shape(state, m[1], m[2]), {}


def create_ref(state, m, q, b):
    branch = b["ref"].removeprefix("refs/heads/")
    if branch in state.refs.setdefault(m[1], {}):
        return 422, {"message": "Reference already exists"}, {}
    state.refs[m[1]][branch] = b["sha"]
    return 201, _ref_shape(state, m[1], branch), {}


def _is_ancestor(state, old: str, new: str) -> bool:
    todo, seen = [new], set()
    while todo:
        sha = todo.pop()
        if sha == old:
            return True
        if sha not in seen and sha in state.git.commits:
            seen.add(sha)
            todo.extend(state.git.commits[sha].parents)
    return False


def update_ref(state, m, q, b):
    refs = state.refs.get(m[1], {})
    if m[2] not in refs:
        return 422, {"message": "Reference does not exist"}, {}
    if not b.get("force") and not _is_ancestor(state, refs[m[2]], b["sha"]):
        return 422, {"message": "Update is not a fast forward"}, {}
    refs[m[2]] = b["sha"]
    for pr in state.pulls.values():  # a PR's head follows its branch
        if pr["head_repo"] == m[1] and pr["head_ref"] == m[2]:
            pr["head_sha"] = b["sha"]
    return 200, _ref_shape(state, m[1], m[2]), {}


GIT_TABLE = [
    ("GET", R + r"/git/commits/([0-9a-f]{40})", get_commit),
    ("GET", R + r"/git/trees/([0-9a-f]{40})", get_tree),
    ("GET", R + r"/git/blobs/([0-9a-f]{40})", get_blob),
    ("POST", R + r"/git/blobs", create_blob),
    ("POST", R + r"/git/trees", create_tree),
    ("POST", R + r"/git/commits", create_commit),
    ("POST", R + r"/git/refs", create_ref),
    ("GET", R + r"/git/refs?/heads/(.+)", get_ref),
    ("PATCH", R + r"/git/refs/heads/(.+)", update_ref),
]
