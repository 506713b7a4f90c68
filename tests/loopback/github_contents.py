"""The contents API of the loopback GitHub server (`GET /repos/{o}/{r}/contents/{path}?ref=`),
read from the in-memory git store at the ref's commit: a file as the `content-file` shape (base64
content), a directory as the list of its entries (shapes of ../shared/github/openapi examples).
`PUT` creates or updates one file on a branch with GitHub's blob-sha check (issue 28)."""

from __future__ import annotations

import base64
import re

R = r"/repos/([^/]+/[^/]+)"


def _entry(state, full: str, ref: str, path: str, kind: str, sha: str, data: bytes | None):
    url = f"{state.api}/repos/{full}/contents/{path}?ref={ref}"
    out = {
        "type": "file" if kind == "blob" else "dir",
        "size": len(data) if data is not None else 0,
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": sha,
        "url": url,
        "git_url": f"{state.api}/repos/{full}/git/{kind}s/{sha}",
        "html_url": f"{state.api}/{full}/blob/{ref}/{path}",
        "download_url": None,
        "_links": {
            "self": url,
            "git": f"{state.api}/repos/{full}/git/{kind}s/{sha}",
            "html": f"{state.api}/{full}/blob/{ref}/{path}",
        },  # fmt: skip
    }
    return out


def get_contents(state, m, q, b):
    full, path = m[1], m[2].strip("/")
    ref = q.get("ref", ["main"])[0]
    sha = state.refs.get(full, {}).get(ref)
    if sha is None:
        return 404, {"message": "No commit found for the ref " + ref}, {}
    kind, obj = "tree", state.git.commits[sha].tree
    for part in [p for p in path.split("/") if p]:
        if kind != "tree" or part not in state.git.trees[obj]:
            return 404, {"message": "Not Found"}, {}
        _mode, kind, obj = state.git.trees[obj][part]
    if kind == "tree":
        listing = [
            _entry(
                state,
                full,
                ref,
                f"{path}/{name}".strip("/"),
                k,
                s,
                state.git.blobs.get(s) if k == "blob" else None,
            )  # fmt: skip
            for name, (_mo, k, s) in sorted(state.git.trees[obj].items())
        ]
        return 200, listing, {}
    data = state.git.blobs[obj]
    body = _entry(state, full, ref, path, "blob", obj, data)
    body.update(encoding="base64", content=base64.encodebytes(data).decode())
    return 200, body, {}


def _blob_at(state, commit: str, path: str) -> str | None:
    """The blob sha of `path` in `commit`'s tree, or None."""
    kind, obj = "tree", state.git.commits[commit].tree
    for part in [p for p in path.split("/") if p]:
        if kind != "tree" or part not in state.git.trees[obj]:
            return None
        _mode, kind, obj = state.git.trees[obj][part]
    return obj if kind == "blob" else None


def put_contents(state, m, q, b):
    """`PUT /repos/{o}/{r}/contents/{path}` (create or update a file, issue 28): one commit on
    `branch` (default `main`) whose parent is its head. As GitHub checks it: updating needs the
    current blob's `sha` (a stale one is 409, a missing one 422), a missing branch is 404."""
    full, path = m[1], m[2].strip("/")
    branch = b.get("branch") or "main"
    head = state.refs.get(full, {}).get(branch)
    if head is None:
        return 404, {"message": f"Branch {branch} not found"}, {}
    current, given = _blob_at(state, head, path), b.get("sha")
    if current is not None and given is None:
        return 422, {"message": 'Invalid request.\n\n"sha" wasn\'t supplied.'}, {}
    if given is not None and given != current:
        return 409, {"message": f"{path} does not match {given}"}, {}
    blob = state.git.put_blob(base64.b64decode(b["content"]))
    tree = state.git.update_tree(state.git.commits[head].tree, [{"path": path, "sha": blob}])
    commit = state.git.put_commit(tree, [head], b["message"])
    state.refs[full][branch] = commit
    data = state.git.blobs[blob]
    content = _entry(state, full, branch, path, "blob", blob, data)
    return (200 if current else 201), {"content": content, "commit": {"sha": commit}}, {}


CONTENTS_TABLE = [
    ("GET", R + r"/contents/(.*)", get_contents),
    ("PUT", R + r"/contents/(.*)", put_contents),  # issue 28: the memory branch's seen.json
]


MEMORY_BRANCH = "repopilot-memory"


def _memory_write(r) -> bool:
    """A write of RepoPilot's memory (issue 28, docs/MEMORY.md): seen.json on its own branch."""
    body = r.body if isinstance(r.body, dict) else {}
    if r.method == "PUT" and r.path.endswith("/contents/seen.json"):
        return body.get("branch") == MEMORY_BRANCH
    if r.method != "POST":
        return False
    if r.path.endswith("/git/trees"):
        entries = body.get("tree") or []
        return not body.get("base_tree") and [e.get("path") for e in entries] == ["seen.json"]
    if r.path.endswith("/git/commits"):
        return str(body.get("message", "")).startswith("RepoPilot memory") and not body.get(
            "parents"
        )
    if r.path.endswith("/git/refs"):
        return body.get("ref") == f"refs/heads/{MEMORY_BRANCH}"
    return False


def repository_writes(state) -> list:
    """Every write to the repository's git data (objects, refs, contents) other than the memory's:
    a triage run makes none (a fix is committed only after an approval)."""
    kinds = r"/repos/[^/]+/[^/]+/(git/.*|contents/.*)"
    return [
        r
        for r in state.requests
        if r.host == "api"
        and r.method in ("POST", "PUT", "PATCH", "DELETE")
        and re.fullmatch(kinds, r.path)
        and not _memory_write(r)
    ]
