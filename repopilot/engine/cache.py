"""A small on-disk cache of what loading a pattern file proved: the validated patterns (as JSON,
which loads far faster than YAML), every regex compiles, and the prefilter literals derived; and
the set engine's compiled Hyperscan database. Keyed by the SHA-256 of the file's bytes and of
the derivation code, so an edit to either is a miss. Loading 300 patterns cold costs ~0.7 s of
regex compilation and literal derivation; warm, the regexes are compiled lazily, on first use.

The cache is not trusted (issue 12): every entry is sealed with an HMAC-SHA256 over the pattern
file's own hash and the entry's canonical content, keyed by a random secret kept beside the
cache directory (`<dir>.key`, mode 0600), not in it. An entry rewritten, copied from another
machine or restored with the directory from a shared CI cache does not verify and is rebuilt
from the YAML, so it cannot change verdicts, titles or hints. (Whoever can write the key file
can also edit the pattern library itself: that is out of reach of any cache.)

Location: `REPOPILOT_CACHE_DIR`, else `$XDG_CACHE_HOME/repopilot`, else `~/.cache/repopilot`.
Any error reading or writing the cache is ignored: it is only ever an optimization.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import tempfile
from pathlib import Path

from repopilot.engine import prefilter

_SEAL = "seal"


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


def _secret() -> bytes | None:
    """The sealing key, created on first use; None when it can be neither read nor made."""
    path = _dir().with_name(_dir().name + ".key")
    try:
        got = path.read_bytes()
        if len(got) == 32:
            return got
    except OSError:
        pass
    import secrets  # only when the key is first made: it costs start-up time otherwise

    fresh = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".repopilot-key-")
        with os.fdopen(fd, "wb") as f:  # mkstemp: mode 0600
            f.write(fresh)
        os.replace(tmp, path)
    except OSError:
        return None
    return fresh


def seal(secret: bytes, content_key: str, entry: dict) -> str:
    """HMAC over the pattern file's hash and the entry's canonical JSON (without its seal)."""
    body = {k: v for k, v in entry.items() if k != _SEAL}
    msg = content_key.encode() + b"\0" + json.dumps(body, sort_keys=True).encode("utf-8")
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


class LiteralCache:
    def __init__(self) -> None:
        self.path = _dir() / f"patterns-{_salt()}.json"
        self.entries: dict[str, dict] = {}
        self.dirty = False
        self.secret = _secret()
        try:
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.entries = {}
        if not isinstance(self.entries, dict):
            self.entries = {}

    def get(self, content_key: str) -> dict | None:
        """The entry for this file content, only when its seal verifies."""
        got = self.entries.get(content_key)
        ok = isinstance(got, dict) and {"file", "lines", "literals", _SEAL} <= set(got)
        if not ok or self.secret is None:
            return None
        want = seal(self.secret, content_key, got)  # type: ignore[arg-type]
        if not hmac.compare_digest(str(got[_SEAL]), want):  # type: ignore[index]
            return None
        return got

    def put(self, content_key: str, entry: dict) -> None:
        if self.secret is None:
            return
        entry = json.loads(json.dumps(entry))  # sealed as it will read back (int keys -> str)
        self.entries[content_key] = {**entry, _SEAL: seal(self.secret, content_key, entry)}
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        if not self.dirty:
            return
        data = {k: v for k, v in self.entries.items() if k in keep}
        _write(self.path, json.dumps(data).encode("utf-8"))


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".patterns-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def read_sealed(name: str) -> bytes | None:
    """A binary cache file written by `write_sealed`, when its seal verifies."""
    secret = _secret()
    try:
        raw = (_dir() / name).read_bytes()
    except OSError:
        return None
    if secret is None or len(raw) < 32:
        return None
    tag, blob = raw[:32], raw[32:]
    want = hmac.new(secret, name.encode() + b"\0" + blob, hashlib.sha256).digest()
    return blob if hmac.compare_digest(tag, want) else None


def write_sealed(name: str, blob: bytes) -> None:
    secret = _secret()
    if secret is None:
        return
    tag = hmac.new(secret, name.encode() + b"\0" + blob, hashlib.sha256).digest()
    _write(_dir() / name, tag + blob)
