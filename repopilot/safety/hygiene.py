"""Injection hygiene for untrusted text (docs/THREAT_MODEL.md §3): `sanitize` and `fence`.

`sanitize` drops what a reader cannot see but a model or a renderer acts on (invisible, bidi and
zero-width characters, HTML comments); `fence` wraps untrusted text in markers it cannot close.
Both are also importable from `repopilot.redact`, whose `clean_for_model` runs `sanitize` first.
"""

from __future__ import annotations

import re
import secrets

from repopilot.safety.deceptive import INVISIBLE as _INVISIBLE

# What counts as invisible is defined once, in `repopilot.safety.deceptive`: the same set makes a
# proposed diff be withheld, so text cleaned here and diffs checked there cannot disagree.
# An unterminated comment hides everything after it when rendered, so it goes to the end too.
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def sanitize(text: str) -> str:
    """`text` without invisible/bidi characters and without HTML comments (docs/THREAT_MODEL.md §3)."""
    if not text.isascii():
        text = _INVISIBLE.sub("", text)
    for _ in range(3):  # removing `<!--a-->` from `<!<!--a-->--` forms a new opener
        if "<!--" not in text:
            return text
        text = _COMMENT.sub("", text)
    return text[: text.find("<!--")] if "<!--" in text else text  # still nested: hide the rest


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
