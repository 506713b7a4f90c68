"""The contents API of the loopback GitHub server (`GET /repos/{o}/{r}/contents/{path}?ref=`),
read from the in-memory git store at the ref's commit: a file as the `content-file` shape (base64
content), a directory as the list of its entries (shapes of ../shared/github/openapi examples)."""

from __future__ import annotations

import base64

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


CONTENTS_TABLE = [("GET", R + r"/contents/(.*)", get_contents)]
