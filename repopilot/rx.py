"""Linear-time regexes where google-re2 is installed; `regex` where it is not.

google-re2 and hyperscan are the `fast` extra (`pip install 'repopilot[fast]'`; the Action's
locked wheels hold both). Without them the engine runs the same patterns with the same verdicts
on the per-pattern path (engine/match/scan.py), several times slower on large logs. Every module
outside the set engine compiles through here, so none of them needs RE2 to import.

On the `regex` path an expression written for RE2 is read as RE2 reads it, as far as `regex` can:
`\\x{HH}` escapes are rewritten, and an ASCII expression without `\\p` classes is compiled with
`regex.ASCII` (RE2's `\\w`, `\\d`, `\\s`, `\\b` are ASCII; its case folding is Unicode, so an
expression with non-ASCII letters stays Unicode). Expressions from a pattern library
(`prefilter_regex:`) are searched under a timeout there, as the patterns themselves are.

The tests run both paths: tests/without_fast.py starts the CLI where neither library imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, Protocol

import regex


def _load() -> ModuleType | None:
    try:
        import re2
    except ImportError:
        return None
    module: ModuleType = re2
    return module


RE2: ModuleType | None = _load()
"""google-re2's module, or None where it is not installed."""

WHY_SLOW = "google-re2 is not installed (pip install 'repopilot[fast]')"


class Compiled(Protocol):
    """What callers use of a compiled expression, in both engines."""

    def search(self, text: Any, pos: int = ...) -> Any: ...
    def finditer(self, text: Any) -> Iterator[Any]: ...


class error(Exception):  # noqa: N801  (named as `re.error`)
    """The expression does not compile (in RE2 where it is installed, else in `regex`)."""


def available() -> bool:
    return RE2 is not None


def escape(literal: str) -> str:
    """`literal` as an expression both engines read literally."""
    return RE2.escape(literal) if RE2 is not None else regex.escape(literal)


_HEX = re.compile(r"(?<!\\)((?:\\\\)*)\\x\{([0-9A-Fa-f]{1,8})\}")


def python_syntax(expr: str) -> str:
    """An RE2 expression in `regex`'s syntax: `\\x{85}` -> `\\x85` (`\\U` form), `\\z` -> `\\Z`."""
    out = _HEX.sub(lambda m: f"{m.group(1)}\\U{int(m.group(2), 16):08x}", expr)
    return re.sub(r"(?<!\\)((?:\\\\)*)\\z", r"\1\\Z", out)


def regex_flags(expr: str, ignore_case: bool = False) -> int:
    """`regex` flags that read `expr` as RE2 does (see the module docstring)."""
    flags = regex.IGNORECASE if ignore_case else 0
    if expr.isascii() and "\\p" not in expr and "\\P" not in expr:
        flags |= regex.ASCII
    return flags


def options(
    *, ignore_case: bool, max_mem: int | None = None, latin1: bool = False, never_nl: bool = False
) -> Any:
    """RE2's options for `compile` and for an `RE2.Set` (google-re2 must be installed)."""
    assert RE2 is not None
    opts = RE2.Options()
    if max_mem is not None:
        opts.max_mem = max_mem
    opts.case_sensitive = not ignore_case
    if latin1:
        opts.encoding = RE2.Options.Encoding.LATIN1
    opts.never_nl = never_nl
    return opts


def compile(  # noqa: A001  (as `re.compile`)
    expr: str | bytes,
    *,
    ignore_case: bool = False,
    max_mem: int | None = None,
    latin1: bool = False,
    never_nl: bool = False,
) -> Compiled:
    """`expr` compiled by RE2 (with these options) or else by `regex`; `error` if neither reads it.
    Bytes expressions search bytes; `never_nl` (RE2 only) keeps a match within one line. Only
    for expressions that cannot backtrack badly (ours, and alternations of escaped literals): on
    the `regex` path nothing bounds their time."""
    if RE2 is not None:
        opts = options(ignore_case=ignore_case, max_mem=max_mem, latin1=latin1, never_nl=never_nl)
        try:
            got: Compiled = RE2.compile(expr, opts)
        except RE2.error as exc:
            raise error(str(exc)) from None
        return got
    try:
        if isinstance(expr, bytes):
            text = python_syntax(expr.decode("latin-1")).encode("latin-1")
            return regex.compile(text, regex.IGNORECASE if ignore_case else 0)
        return regex.compile(python_syntax(expr), regex_flags(expr, ignore_case))
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        raise error(str(exc)) from None


def check(expr: str) -> None:
    """Raise `error` unless `expr` compiles (in RE2 where it is installed, else in `regex`)."""
    compile(expr)


def searcher(expr: str) -> Compiled:
    """`expr` (a library's RE2 expression, case-insensitive) for `found(searcher, text)`."""
    return compile(expr, ignore_case=True)


def found(compiled: Compiled, text: str, timeout: float = 0.05) -> bool:
    """Whether a `searcher` finds a match in `text`; a `regex` search that times out counts as a
    match (the expression only selects lines that a pattern then confirms under its own timeout)."""
    if isinstance(compiled, regex.Pattern):
        try:
            return compiled.search(text, timeout=timeout) is not None
        except TimeoutError:
            return True
    return compiled.search(text) is not None


def any_of(literals: Sequence[str], max_mem: int | None = None) -> Compiled:
    """Finds the literals, non-overlapping, left to right, the longest at each place: one RE2
    alternation (longest first) or one trie of them in `re` (shared prefixes once, so a place is
    tried against one branch per character, whatever the number of literals)."""
    longest_first = sorted(set(literals), key=len, reverse=True)
    if RE2 is not None:
        return compile("|".join(map(escape, longest_first)), max_mem=max_mem)
    return re.compile(trie(longest_first) or "(?!)")


def trie(words: Sequence[str]) -> str:
    """One `re` alternation of `words` as a trie, longest match first: a node's branches start
    with distinct characters, and a chain without a branch is one run (no nesting). For bytes,
    pass the words decoded as latin-1 and encode the result so."""
    root: dict[str | None, Any] = {}
    for w in words:
        node = root
        for c in w:
            node = node.setdefault(c, {})
        node[None] = {}  # a word ends here
    return _emit(root)


def _emit(node: dict[str | None, Any]) -> str:
    alts = []
    for c in sorted(k for k in node if k is not None):
        run, child = [c], node[c]
        while len(child) == 1 and None not in child:  # a chain: one run, no nesting
            ((c, child),) = child.items()
            run.append(c)
        alts.append(re.escape("".join(run)) + _emit(child))
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return "(?:" + body + ")?" if None in node else body
