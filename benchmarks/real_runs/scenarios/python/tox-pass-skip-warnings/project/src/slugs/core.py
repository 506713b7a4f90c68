"""Slugify titles; the old `slug()` name still works but warns."""

import re
import unicodedata
import warnings


class SlugError(ValueError):
    """Raised when a title has nothing left to slug."""


def slugify(title, sep="-"):
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", text.lower())
    if not words:
        raise SlugError(f"error: nothing to slug in {title!r}")
    return sep.join(words)


def slug(title):
    warnings.warn("slug() is deprecated; use slugify()", DeprecationWarning, stacklevel=2)
    return slugify(title)
