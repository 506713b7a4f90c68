"""A small on-disk cache of what loading a pattern file proved: the validated patterns (as JSON,
which loads far faster than YAML), every regex compiles, and the prefilter literals derived. Keyed by the SHA-256 of the file's bytes and of the
derivation code, so an edit to either is a miss. Loading 300 patterns cold costs ~0.7 s of
regex compilation and literal derivation; warm, the regexes are compiled lazily, on first use.

Location: `REPOPILOT_CACHE_DIR`, else `$XDG_CACHE_HOME/repopilot`, else `~/.cache/repopilot`.
Any error reading or writing the cache is ignored: it is only ever an optimization.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from repopilot.engine import prefilter


def _dir() -> Path:
    env = os.environ.get("REPOPILOT_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "repopilot"


def _salt() -> str:
    code = Path(prefilter.__file__).read_bytes() + Path(__file__).read_bytes()
    return hashlib.sha256(code).hexdigest()[:16]


def key(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


class LiteralCache:
    def __init__(self) -> None:
        self.path = _dir() / f"patterns-{_salt()}.json"
        self.entries: dict[str, dict] = {}
        self.dirty = False
        try:
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.entries = {}

    def get(self, content_key: str) -> dict | None:
        got = self.entries.get(content_key)
        ok = isinstance(got, dict) and {"file", "lines", "literals"} <= set(got)
        return got if ok else None

    def put(self, content_key: str, entry: dict) -> None:
        self.entries[content_key] = entry
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        if not self.dirty:
            return
        data = {k: v for k, v in self.entries.items() if k in keep}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".patterns-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)
        except OSError:
            pass
