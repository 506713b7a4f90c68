"""An in-memory git object store with real git object ids, for the loopback GitHub server.

Blob, tree and commit ids are computed exactly as git does, so a test can compare a tree the
action built through the API with the tree of the files it expects.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


def _oid(kind: str, payload: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(payload)}\0".encode() + payload).hexdigest()


@dataclass
class Commit:
    tree: str
    parents: list[str]
    message: str


@dataclass
class GitStore:
    blobs: dict[str, bytes] = field(default_factory=dict)
    trees: dict[str, dict[str, tuple[str, str, str]]] = field(default_factory=dict)
    commits: dict[str, Commit] = field(default_factory=dict)

    def put_blob(self, data: bytes) -> str:
        sha = _oid("blob", data)
        self.blobs[sha] = data
        return sha

    def put_tree(self, entries: dict[str, tuple[str, str, str]]) -> str:
        """entries: name -> (mode, type, sha). Sorted the way git sorts (dirs as name + '/')."""
        key = lambda n: n + "/" if entries[n][1] == "tree" else n  # noqa: E731
        payload = b"".join(
            f"{entries[n][0].lstrip('0') if entries[n][1] == 'tree' else entries[n][0]} {n}".encode()
            + b"\0"
            + bytes.fromhex(entries[n][2])
            for n in sorted(entries, key=key)
        )
        sha = _oid("tree", payload)
        self.trees[sha] = dict(entries)
        return sha

    def put_commit(self, tree: str, parents: list[str], message: str) -> str:
        lines = [f"tree {tree}", *(f"parent {p}" for p in parents)]
        lines += ["author t <t@t> 0 +0000", "committer t <t@t> 0 +0000", "", message]
        sha = _oid("commit", "\n".join(lines).encode())
        self.commits[sha] = Commit(tree, list(parents), message)
        return sha

    def tree_of_files(self, files: dict[str, bytes | tuple[str, bytes]]) -> str:
        """A (nested) tree from path -> content, or path -> (mode, content)."""
        entries: dict[str, tuple[str, str, str]] = {}
        subdirs: dict[str, dict] = {}
        for path, value in files.items():
            head, _, rest = path.partition("/")
            if rest:
                subdirs.setdefault(head, {})[rest] = value
            else:
                mode, data = value if isinstance(value, tuple) else ("100644", value)
                entries[head] = (mode, "blob", self.put_blob(data))
        for name, sub in subdirs.items():
            entries[name] = ("040000", "tree", self.tree_of_files(sub))
        return self.put_tree(entries)

    def files(self, tree: str, prefix: str = "") -> dict[str, tuple[str, bytes]]:
        """path -> (mode, content) for every blob under `tree`."""
        out: dict[str, tuple[str, bytes]] = {}
        for name, (mode, kind, sha) in self.trees[tree].items():
            if kind == "tree":
                out.update(self.files(sha, f"{prefix}{name}/"))
            else:
                out[f"{prefix}{name}"] = (mode, self.blobs.get(sha, b""))
        return out

    def update_tree(self, base: str | None, changes: list[dict]) -> str:
        """Git's `POST /git/trees` with `base_tree`: set or (sha null) delete paths."""
        files = self.files(base) if base else {}
        for change in changes:
            path = change["path"]
            if change.get("sha", "") is None:
                files.pop(path, None)
            elif "content" in change:
                files[path] = (change.get("mode", "100644"), change["content"].encode())
            else:
                files[path] = (change.get("mode", "100644"), self.blobs[change["sha"]])
        return self.tree_of_files({p: v for p, v in files.items()})
