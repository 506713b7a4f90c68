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

Each pattern directory has its own file, holding only the entries of its current files, and a
seal of the whole file beside it (`.seal`): when that verifies, no entry needs its own check,
which is what a start-up on a known library spends its time on otherwise (issue 11). When it
does not (a rewritten file, or two processes writing at once), each entry is checked by its own
seal as before. Files of libraries not written for PRUNE_DAYS are removed when another is written.

Location: the `root` each caller passes (the entry points pass the settings' REPOPILOT_CACHE_DIR,
else `$XDG_CACHE_HOME/repopilot`: repopilot/settings.py), else `~/.cache/repopilot`.
Any error reading or writing the cache is ignored: it is only ever an optimization.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, TypeAlias

from repopilot.engine.library import prefilter

_SEAL = "seal"
# One pattern file's entry as JSON ({"file", "lines", "literals", "seal"}): the wire, whose
# values the loader reads back and checks itself (engine/library/loader.py `_cached`).
Entry: TypeAlias = dict[str, Any]
PRUNE_DAYS = 30


def _dir(root: Path | None) -> Path:
    """The cache directory: `root`, else `~/.cache/repopilot`."""
    return root if root is not None else Path(os.path.expanduser("~")) / ".cache" / "repopilot"


def _salt() -> str:
    # The code that derived what an entry holds: the literals, the schema that validated the
    # data (read, not imported: importing it imports pydantic), and this file's format.
    here = Path(__file__)
    code = b"".join(
        f.read_bytes() for f in (Path(prefilter.__file__), here.with_name("schema.py"), here)
    )
    return hashlib.sha256(code).hexdigest()[:16]


def key(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _secret(root: Path | None) -> bytes | None:
    """The sealing key, created on first use; None when it can be neither read nor made."""
    path = _dir(root).with_name(_dir(root).name + ".key")
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


def seal(secret: bytes, content_key: str, entry: Entry) -> str:
    """HMAC over the pattern file's hash and the entry's canonical JSON (without its seal)."""
    body = {k: v for k, v in entry.items() if k != _SEAL}
    msg = content_key.encode() + b"\0" + json.dumps(body, sort_keys=True).encode("utf-8")
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


class LiteralCache:
    """The entries of one pattern directory (`scope`: its resolved path), by file content, in
    the cache directory `root` (None: the default)."""

    def __init__(self, scope: str = "", root: Path | None = None) -> None:
        self.path = _dir(root) / f"patterns-{_salt()}-{key(scope.encode())[:12]}.json"
        self.entries: dict[str, Entry] = {}
        self.dirty = False
        self.secret = _secret(root)
        self.trusted = False  # the whole file's seal verified: no entry needs its own check
        try:
            raw = self.path.read_bytes()
            self.entries = json.loads(raw)
        except (OSError, ValueError):
            self.entries, raw = {}, b""
        if not isinstance(self.entries, dict):
            self.entries = {}
        if self.secret is not None and self.entries:
            try:
                tag = self._seal_path().read_bytes()
            except OSError:
                tag = b""
            self.trusted = hmac.compare_digest(tag, _file_seal(self.secret, self.path.name, raw))

    def _seal_path(self) -> Path:
        return self.path.with_suffix(".seal")

    def get(self, content_key: str) -> Entry | None:
        """The entry for this file content, only when its seal (or the whole file's) verifies."""
        got = self.entries.get(content_key)
        # (read from JSON: an entry may be of any type)
        if not isinstance(got, dict) or not {"file", "lines", "literals", _SEAL} <= set(got):
            return None
        if self.secret is None:
            return None
        if self.trusted:
            return got
        want = seal(self.secret, content_key, got)
        if not hmac.compare_digest(str(got[_SEAL]), want):
            return None
        return got

    def put(self, content_key: str, entry: Entry) -> None:
        if self.secret is None:
            return
        entry = json.loads(json.dumps(entry))  # sealed as it will read back (int keys -> str)
        self.entries[content_key] = {**entry, _SEAL: seal(self.secret, content_key, entry)}
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        """Write the entries in `keep` (the directory's current files) and the file's seal, when
        that changes anything: a new entry, one to drop, or a file not sealed as a whole."""
        if self.secret is None:
            return
        if not self.dirty and self.trusted and set(self.entries) == keep:
            return
        data = json.dumps({k: v for k, v in self.entries.items() if k in keep}).encode("utf-8")
        _write(self.path, data)
        _write(self._seal_path(), _file_seal(self.secret, self.path.name, data))
        _prune(self.path)


def _file_seal(secret: bytes, name: str, data: bytes) -> bytes:
    return hmac.new(secret, b"file\0" + name.encode() + b"\0" + data, hashlib.sha256).digest()


def _prune(keep: Path) -> None:
    """Remove the files of pattern libraries not written for PRUNE_DAYS (temporary
    directories, old checkouts, an older format): the directory does not grow without end."""
    cutoff = time.time() - PRUNE_DAYS * 86400
    try:
        for f in keep.parent.glob("patterns-*"):
            if (
                f.suffix in (".json", ".seal")
                and f.stem != keep.stem
                and f.stat().st_mtime < cutoff
            ):
                f.unlink()
    except OSError:
        pass


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".patterns-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def read_sealed(name: str, root: Path | None = None) -> bytes | None:
    """A binary cache file written by `write_sealed`, when its seal verifies."""
    secret = _secret(root)
    try:
        raw = (_dir(root) / name).read_bytes()
    except OSError:
        return None
    if secret is None or len(raw) < 32:
        return None
    tag, blob = raw[:32], raw[32:]
    want = hmac.new(secret, name.encode() + b"\0" + blob, hashlib.sha256).digest()
    return blob if hmac.compare_digest(tag, want) else None


def write_sealed(name: str, blob: bytes, root: Path | None = None) -> None:
    secret = _secret(root)
    if secret is None:
        return
    tag = hmac.new(secret, name.encode() + b"\0" + blob, hashlib.sha256).digest()
    _write(_dir(root) / name, tag + blob)
