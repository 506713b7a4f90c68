"""Does a run of base64-ish characters read as a random secret? (`looks_random`)

The redactor's last rule: after the named and self-identifying secrets are gone, any run of 32+
base64/base64url characters that `looks_random` accepts becomes `[REDACTED:high-entropy]`. The
thresholds below were measured on real paths, identifiers and random tokens (see MAX_CHUNK).
"""

from __future__ import annotations

import math
import re
from collections import Counter

_HEX_SEGMENT = re.compile(r"[0-9a-fA-F]{7,}")
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_HEX_RUN = re.compile(r"[0-9a-fA-F]{8,}")
_SEPARATORS = re.compile(r"[-_/=]")
_CHUNK = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^A-Za-z0-9]+")
_SRI = re.compile(r"sha(?:1|256|384|512)-")
MIN_ENTROPY = 3.5
"""Bits per character of the candidate's core; rules out repetitive runs (`a1a1a1...`)."""
MAX_CHUNK = 3.0
"""Mean length of word-like chunks above which a run reads as words, paths or identifiers.

Entropy alone cannot separate secrets from paths at 32 characters: over 108k path runs from /usr the
99th percentile is 4.55 bits/char while random 32-char base64 has a median of 4.56. Words are the
difference: random base64 splits into chunks of ~1.8 characters (`aB3xK` -> a, B, 3, x, K), paths and
identifiers into chunks of 3.5 or more. Measured with these two thresholds: 2 of 108k path runs and
no identifier flagged; random 32-char base64/alnum tokens missed 0.7-1.5%, 64-char ones 0%;
lower-case-only tokens are missed ~17% (their chunks look like short words) and are left to the
named rules."""


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def looks_random(run: str) -> bool:
    """True when a base64-ish run of 32+ characters reads as a random secret (see MAX_CHUNK).

    Hex is dropped first, as whole segments and as runs of 8+ inside one (git SHAs, SHA-256
    digests, UUIDs, `build-3f2a...` names): hex digests are everywhere in CI logs and entropy cannot
    tell them from hex secrets. A run cut by many separators (`cp311-cp311-manylinux_2_17_x86_64`,
    paths) is structured text: random base64url has about one separator in 32 characters.
    """
    segments = _SEPARATORS.split(_UUID.sub("", run))
    if _SRI.match(run) or len(segments) - 1 > len(run) // 8:
        return False
    core = "".join(_HEX_RUN.sub("", s) for s in segments if not _HEX_SEGMENT.fullmatch(s))
    if len(core) < 24 or core.isalpha() or not any(c.isalpha() for c in core):
        return False
    if len(core) / len(_CHUNK.findall(core)) >= MAX_CHUNK:
        return False
    return _entropy(core) >= MIN_ENTROPY
