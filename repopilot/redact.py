"""Secrets and injection hygiene for every text sent to a model or posted (SECURITY.md §3, §4).

`clean_for_model(text)` is the one call the rest of the code uses: `sanitize` (invisible, bidi and
zero-width characters, HTML comments) then `redact` (secrets become `[REDACTED:<kind>]`).
`fence(text, label)` wraps untrusted text in markers carrying a fresh random nonce.

Every pattern starts with a literal or a lookbehind and no repeat can fail after a long scan from
many starts, so an attacker-made log cannot make redaction slow (tests/test_redact.py times 200 KB
of each hostile shape). A real 200 KB CI log window takes about 9-20 ms of CPU.
"""

from __future__ import annotations

import math
import re
import secrets
import string
from collections import Counter
from dataclasses import dataclass

import regex

MARK = "[REDACTED:{}]"


@dataclass(frozen=True)
class Redacted:
    """Redacted text, how many secrets were replaced and which kinds (never the values)."""

    text: str
    count: int
    kinds: tuple[str, ...]


# Distinctive prefixes need no left boundary: a token may follow `%3D` in a URL-encoded string.
# A JWT does: a long run of `eyJeyJ...` would otherwise be rescanned from every `eyJ`.
# Every pattern starts with a literal (lookbehinds come after it): `re` then skips ahead with a
# fast search instead of trying the pattern at every position (10-30x faster on 200 KB).
_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("github-token", re.compile(r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}")),
    (
        "aws-access-key",
        re.compile(r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|AROA)[A-Z0-9]{16}(?![A-Z0-9])"),
    ),
    (
        "jwt",
        re.compile(r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    ),
    ("slack-token", re.compile(r"xox[baprs]-[A-Za-z0-9-]{10,}")),
    ("slack-webhook", re.compile(r"hooks\.slack\.com/services/[A-Za-z0-9/_-]{16,}")),
    # `sk-` is common inside words (task-, disk-): require a boundary and a digit in the key
    (
        "openai-key",
        re.compile(r"sk-(?<![A-Za-z0-9_-]sk-)(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,}"),
    ),
    ("npm-token", re.compile(r"npm_[A-Za-z0-9]{30,}")),
    ("google-api-key", re.compile(r"AIza[0-9A-Za-z_-]{35}")),
    # literal first so `re` can skip ahead; the `s`/`r` before `k_` stays (it is no secret)
    ("stripe-key", re.compile(r"k_(?<=[sr]k_)(?:live|test)_[0-9A-Za-z]{16,}")),
)
"""Self-identifying tokens: the whole match is the secret."""

# Named secrets are matched on the ASCII-lowercased text (case-insensitive `re` is ~10x slower and
# loses the literal-prefix search); every pattern starts with a literal so `re` can skip ahead.
_VALUE = r"""(?:"(?P<dq>[^"\n]{4,256})"|'(?P<sq>[^'\n]{4,256})'|(?P<bare>[^\s"'`,;&()\[\]{}<>]{4,256}))"""
_NAMED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "aws-secret-key",
        re.compile(
            r"aws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?(?P<bare>[a-z0-9/+=]{20,64})"
        ),
    ),
    (
        "auth-header",
        re.compile(
            r"authorization(?<![a-z0-9]authorization)[\"']?\s*[:=]\s*[\"']?"
            r"(?:(?P<scheme>bearer|basic|token|digest|negotiate|ntlm)\s+)?(?P<bare>[^\s\"'`,;]+)"
        ),
    ),
    (
        "url-credentials",
        # user:password@, or a token alone as the user (`https://<40 hex>@github.com`, 16+ chars)
        re.compile(
            r"://(?<=[a-z0-9]://)"
            r"(?P<bare>[^\s/@:'\"<>]{0,256}:[^\s/@'\"<>]{1,256}|[^\s/@:'\"<>]{16,256})@"
        ),
    ),
    (
        "secret-assignment",  # word start and the prefix of `key` are checked in _splice
        re.compile(
            r"(?:token|secret|passw(?:or)?d|passphrase|credentials?|key)[\"']?\s*[:=](?!=)\s*"
            + _VALUE
        ),
    ),
)
"""Secrets recognised by their name or header: only the value group is replaced."""

# Values that are references or masks, not secrets: `${{ secrets.X }}`, `$TOKEN`, `%TOKEN%`, `***`,
# `<your-token>`, `true`. Whole-value matches only, so `***` + secret is still a secret.
_PLACEHOLDER = re.compile(
    r"(?i)\$|\$\{\{.*|\$\{[^}]*\}|\$[a-z_][a-z0-9_]*|%[a-z_][a-z0-9_]*%|\*+|<[^<>]*>|\{\{.*\}\}"
    r"|null|none|true|false|undefined|required|redacted|x+"
)
# A call or subscript on a dotted or snake_case name is code, not a literal secret.
_CODE_NAME = re.compile(r"[a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[a-z_]*_[a-z0-9_]*|[a-z]+")
_MARKS = re.compile(r"\[REDACTED:[a-z-]+\]")
_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_SPAN = 16384  # a PEM key, even with log prefixes on every line, fits well inside this
_KEY_TOKEN = re.compile(r"[A-Za-z0-9+/=]{16,}|[A-Za-z0-9+/]{1,15}=+|=[A-Za-z0-9+/]{4}")
_KEY_HEADER = re.compile(r"(?:^|\s)(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): ")


def _key_line(line: str) -> bool:
    """A line of PEM/PGP key material, possibly behind a log prefix (timestamp, step name)."""
    words = line.split()
    return bool(words) and (
        _KEY_TOKEN.fullmatch(words[-1]) is not None or _KEY_HEADER.search(line) is not None
    )


# High-entropy candidates: maximal runs of base64/base64url characters of 32 or more.
_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{32,}")
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


class _Counter:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()

    def mark(self, kind: str) -> str:
        self.kinds[kind] += 1
        return MARK.format(kind)


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _redact_pem(text: str, seen: _Counter) -> str:
    """Whole private-key blocks; without an END (truncated text) the BEGIN line and key lines."""
    out: list[str] = []
    pos = 0
    end: re.Match[str] | None = None
    exhausted = False  # no END after this point
    while (m := _PEM_BEGIN.search(text, pos)) is not None:
        out.append(text[pos : m.start()])
        if end is not None and end.start() < m.end():
            end = None
        if end is None and not exhausted:  # once per END, not per BEGIN: linear in the text
            end = _PEM_END.search(text, m.end())
            exhausted = end is None
        if end is not None and end.start() - m.end() <= _PEM_SPAN:
            pos = end.end()
        else:  # truncated: the BEGIN line, then key lines (blank lines inside are allowed)
            pos = _line_end(text, m.end())
            probe = pos
            while probe < len(text):
                nxt = _line_end(text, probe + 1)
                line = text[probe + 1 : nxt]
                if _key_line(line):
                    pos = nxt
                elif line.strip():
                    break
                probe = nxt
        out.append(seen.mark("private-key"))
    out.append(text[pos:])
    return "".join(out)


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _lower(text: str) -> str:
    """`text` lowered with offsets kept: a few characters lower to two (`İ`), then ASCII only."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


_KEY_PREFIX = re.compile(r"(?:api|access|secret|private|signing|encryption)[_-]?$")


def _secret_name(hay: str, start: int) -> bool:
    """The matched name starts a word (not `max_tokens`); a bare `key` needs a prefix (`api_key`)."""
    if hay.startswith("key", start):
        prefix = _KEY_PREFIX.search(hay, max(0, start - 11), start)
        if prefix is None:
            return False
        start = prefix.start()
    return start == 0 or not hay[start - 1].isalnum()


def _splice(text: str, kind: str, pattern: re.Pattern[str], seen: _Counter) -> str:
    """Replace the value group of each match of `pattern` (run on the lowered text)."""
    hay = _lower(text)
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(hay):
        group = next(g for g in ("dq", "sq", "bare") if m.groupdict().get(g) is not None)
        start, end = m.span(group)
        value = text[start:end]
        rest = _MARKS.sub("", value)  # what an earlier rule has not redacted yet
        if kind == "url-credentials" and ":" in value:
            rest = rest.split(":", 1)[-1]  # beside a password, the user name is no secret
        if not rest or _PLACEHOLDER.fullmatch(value):
            continue
        if kind == "secret-assignment" and (
            not _secret_name(hay, m.start())
            or (hay[end : end + 1] in ("(", "[") and _CODE_NAME.fullmatch(value))
        ):
            continue  # `max_tokens=`, `api_key = get_key()`, `token = os.environ["TOKEN"]`
        if kind == "auth-header" and not m.group("scheme") and len(value) < 8:
            continue  # `Authorization: required` and the like
        out += (text[pos:start], "***" if kind == "url-credentials" else seen.mark(kind))
        if kind == "url-credentials":
            seen.kinds[kind] += 1
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str) -> Redacted:
    """Replace every secret in `text` with `[REDACTED:<kind>]` (SECURITY.md §4)."""
    seen = _Counter()
    if "PRIVATE KEY" in text:
        text = _redact_pem(text, seen)
    for kind, pattern in _TOKENS:
        text = pattern.sub(lambda _m, k=kind: seen.mark(k), text)
    for kind, pattern in _NAMED:
        text = _splice(text, kind, pattern, seen)
    text = _CANDIDATE.sub(
        lambda m: seen.mark("high-entropy") if looks_random(m.group(0)) else m.group(0), text
    )
    return Redacted(text, sum(seen.kinds.values()), tuple(sorted(seen.kinds)))


_INVISIBLE = regex.compile(
    r"[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]+"
)
"""Format characters (zero-width, bidi controls, BOM, tag characters, soft hyphen, ...), plus the
invisible fillers and variation selectors that carry hidden text the same way."""
# An unterminated comment hides everything after it when rendered, so it goes to the end too.
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def sanitize(text: str) -> str:
    """`text` without invisible/bidi characters and without HTML comments (SECURITY.md §3)."""
    if not text.isascii():
        text = _INVISIBLE.sub("", text)
    for _ in range(3):  # removing `<!--a-->` from `<!<!--a-->--` forms a new opener
        if "<!--" not in text:
            return text
        text = _COMMENT.sub("", text)
    return text[: text.find("<!--")] if "<!--" in text else text  # still nested: hide the rest


def clean_for_model(text: str) -> Redacted:
    """`sanitize` then `redact`: the one call for any text bound for a model or a comment."""
    return redact(sanitize(text))


_FAKE_TAG = re.compile(r"<(?=\s{0,8}/?\s{0,8}untrusted-)", re.IGNORECASE)
_LABEL = re.compile(r"[^a-z0-9]+")


def fence(text: str, label: str) -> str:
    """Wrap untrusted `text` in `<untrusted-LABEL-NONCE>` markers with a fresh 64-bit nonce.

    The nonce cannot be guessed, so the text cannot close the fence; text that imitates the
    markers is neutralized (`<` becomes `&lt;`) so it does not even look like one.
    """
    slug = _LABEL.sub("-", label.lower()).strip("-")[:40] or "text"
    tag = f"untrusted-{slug}-{secrets.token_hex(8)}"
    body = _FAKE_TAG.sub("&lt;", text)
    if body and not body.endswith("\n"):
        body += "\n"
    return f"<{tag}>\n{body}</{tag}>"
