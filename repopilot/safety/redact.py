"""Secrets and injection hygiene for every text sent to a model or posted (docs/THREAT_MODEL.md §3, §4).

`clean_for_model(text)` is the one call the rest of the code uses: `sanitize` then `redact` (secrets
become `[REDACTED:<kind>]`). `sanitize` and `fence` (untrusted text in nonce-carrying markers) live
in `repopilot.safety.hygiene`, the high-entropy test `looks_random` in `repopilot.safety.entropy`.

Every pattern starts with a literal or a lookbehind and no repeat can fail after a long scan from
many starts, so an attacker-made log cannot make redaction slow (tests/safety/test_redact.py times 200 KB
of each hostile shape). A real 200 KB CI log window takes about 9-20 ms of CPU.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from repopilot.safety.entropy import looks_random
from repopilot.safety.hygiene import sanitize
from repopilot.safety.masks import apply_masks, apply_wrapped

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
# A name and its value share a line (`[ \t]`, never `\s`, between them): an empty `GH_TOKEN:`
# must not take the next line, whose gutter number the model needs (issue 22).
_VALUE = r"""(?:"(?P<dq>[^"\n]{4,256})"|'(?P<sq>[^'\n]{4,256})'|(?P<bare>[^\s"'`,;&()\[\]{}<>]{4,256}))"""
_NAMED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "aws-secret-key",
        re.compile(
            r"aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<bare>[a-z0-9/+=]{20,64})"
        ),
    ),
    (
        "auth-header",
        re.compile(
            r"authorization(?<![a-z0-9]authorization)[\"']?[ \t]*[:=][ \t]*[\"']?"
            r"(?:(?P<scheme>bearer|basic|token|digest|negotiate|ntlm)[ \t]+)?(?P<bare>[^\s\"'`,;]+)"
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
    # `--password X`, `-u user -pX` (mysql, docker login; not `-p 8080:80`), `sshpass -p X`
    (
        "password-flag",
        re.compile(
            r"--(?<![a-z0-9-]--)(?:password|passwd|pass)(?:=|[ \t]+)(?![0-9:./-]+(?:\s|$))" + _VALUE
        ),
    ),
    (
        "password-flag",
        re.compile(
            r"-u(?<![a-z0-9-]-u)[ \t]*[^\s-]\S*[ \t]+-p[ \t]*(?![0-9:./-]+(?:\s|$))" + _VALUE
        ),
    ),
    ("password-flag", re.compile(r"sshpass[ \t]+-p[ \t]*" + _VALUE)),
    (
        "netrc-password",  # `machine HOST [login USER] password VALUE`, one line or several
        re.compile(
            r"machine(?<![a-z0-9_]machine)\s+\S+\s+(?:login\s+\S+\s+)?(?:account\s+\S+\s+)?"
            r"password[ \t]+" + _VALUE
        ),
    ),
    (
        "secret-assignment",  # word start and the prefix of `key` are checked in _splice
        re.compile(
            r"(?:token|secret|passw(?:or)?d|passphrase|credentials?|key)[\"']?[ \t]*[:=](?!=)[ \t]*"
            + _VALUE
        ),
    ),
    # `--token <hex>`, `--api-key=<digits>`: after a secret-named flag any alphabet is a secret
    (
        "secret-flag",
        re.compile(
            r"--(?<![a-z0-9-]--)(?:[a-z0-9]+-){0,4}"
            r"(?:token|secret|passphrase|credentials?|(?:api|access|secret|private)-?key)"
            r"(?:=|[ \t]+)(?!-)" + _VALUE  # `--with-token --token=X`: no flag is a value
        ),
    ),
    # `apikey <32 hex>`: a secret name, a space and a token-shaped word (16+ characters with a
    # digit, so prose such as `token expired` or `password reset failed` stays)
    (
        "secret-assignment",
        re.compile(
            r"(?:token|secret|passw(?:or)?d|passphrase|credentials?|key)[\"']?[ \t]+"
            r"(?P<bare>(?=[a-z0-9_+/=.~-]{0,255}[0-9])[a-z0-9_+/=.~-]{16,256})(?![^\s\"'`,;)\]}])"
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


def _marker(kind: str, seen: _Counter) -> Callable[[re.Match[str]], str]:
    return lambda _m: seen.mark(kind)


def redact(text: str) -> Redacted:
    """Replace every secret in `text` with `[REDACTED:<kind>]` (docs/THREAT_MODEL.md §4)."""
    seen = _Counter()
    text = apply_masks(text, seen.mark)  # first: the registered values are literal text
    if "PRIVATE KEY" in text:
        text = _redact_pem(text, seen)
    text = apply_wrapped(text, seen.mark)
    for kind, pattern in _TOKENS:
        if pattern.search(text) is not None:  # a search is cheaper than a sub that finds nothing
            text = pattern.sub(_marker(kind, seen), text)
    hay = _lower(text)
    for kind, pattern in _NAMED:
        if pattern.search(hay) is None:
            continue  # most texts name no secret: no splice to build
        text = _splice(text, kind, pattern, seen)
        hay = _lower(text)
    if _CANDIDATE.search(text) is not None:
        text = _CANDIDATE.sub(
            lambda m: seen.mark("high-entropy") if looks_random(m.group(0)) else m.group(0), text
        )
    return Redacted(text, sum(seen.kinds.values()), tuple(sorted(seen.kinds)))


def clean_for_model(text: str) -> Redacted:
    """`sanitize` then `redact`: the one call for any text bound for a model or a comment."""
    return redact(sanitize(text))


def clean_lines(lines: Sequence[str]) -> tuple[list[str], int]:
    """`clean_for_model` over consecutive lines as ONE text, so a token wrapped across two lines
    is seen whole; line by line when cleaning would change the number of lines (a PEM block, an
    HTML comment across lines). Returns the cleaned lines and the number of redactions."""
    joined = clean_for_model("\n".join(lines))
    parts = joined.text.split("\n")
    if len(parts) == len(lines):
        return parts, joined.count
    each = [clean_for_model(line) for line in lines]
    return [c.text for c in each], sum(c.count for c in each)
