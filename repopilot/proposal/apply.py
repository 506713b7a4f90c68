"""Apply a validated diff to file texts in Python, the way `git apply` would (no checkout needed).

`apply_to_files` re-checks the diff against the policy (`repopilot.proposal.policy.check`), then applies
each hunk where its context matches, at the stated line or the nearest offset either way.
`file_modes` gives the modes the diff sets (`new mode`, `new file mode`): a mode change is applied
as shown, never dropped (docs/THREAT_MODEL.md §16), and `old mode` must be what the head has.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from unidiff.patch import Hunk, PatchSet

from repopilot.proposal.diffread import Refused, read_sections
from repopilot.proposal.policy import DEFAULT_POLICY, Policy, check


def _lines(text: str) -> list[str]:
    """Lines as git sees them: split at LF only, each keeping its end; the last may lack one."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _find(lines: list[str], pre: list[str], at: int, lo: int, begin: bool, end: bool) -> int:
    """Where `pre` matches: at `at`, else the nearest offset either way (as `git apply` does)."""
    for delta in range(len(lines) + 1):
        for pos in (at - delta, at + delta) if delta else (at,):
            if (
                pos < lo
                or pos + len(pre) > len(lines)
                or (begin and pos)
                or (end and pos + len(pre) != len(lines))
            ):
                continue
            if lines[pos : pos + len(pre)] == pre:
                return pos
    raise ValueError(f"the context of the hunk at line {at + 1} does not match")


def _patch(text: str, hunks: Iterable[Hunk], path: str) -> str:
    lines, out, cur = _lines(text), [], 0
    for h in hunks:
        pre: list[str] = []
        post: list[str] = []
        body = [ln for ln in h]
        for i, ln in enumerate(body):
            if ln.line_type == "\\":
                continue
            value = ln.value
            if i + 1 < len(body) and body[i + 1].line_type == "\\":
                value = value.removesuffix("\n")  # `\ No newline at end of file`
            if ln.line_type != "+":
                pre.append(value)
            if ln.line_type != "-":
                post.append(value)
        types = [ln.line_type for ln in body if ln.line_type != "\\"]
        trailing = next((i for i, t in enumerate(reversed(types)) if t != " "), 0)
        at = h.source_start - 1 if h.source_length else h.source_start
        try:
            at = _find(lines, pre, at, cur, h.source_start <= 1, trailing == 0)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        out += lines[cur:at] + post
        cur = at + len(pre)
    return "".join(out + lines[cur:])


def apply_to_files(
    diff: str, read: Callable[[str], str | None], *, policy: Policy = DEFAULT_POLICY
) -> dict[str, str | None]:
    """Apply `diff` to texts given by `read(path)` (None: no such file); new text per path.

    The result maps every path the diff writes to its new text, or to None when the diff deletes
    (or renames away) the file. The diff is re-checked against the policy first; a context line
    that does not match, a missing file or a file that already exists raises ValueError.
    """
    try:
        sections = check(diff, None, policy)
    except Refused as exc:
        raise ValueError(str(exc)) from None
    out: dict[str, str | None] = {}
    for s, pf in zip(sections, PatchSet(diff), strict=True):
        src, dst = s.source, s.target
        if (src is not None and src in out) or (dst is not None and dst in out):
            raise ValueError(f"{dst or src}: changed twice in one diff")
        if dst is not None and dst != src and read(dst) is not None:
            raise ValueError(f"{dst}: already exists")
        old = None if src is None else read(src)
        if src is not None and old is None:
            raise ValueError(f"{src}: no such file")
        new = _patch(old or "", pf, (dst or src) or "")
        if dst is None:
            if new:
                raise ValueError(f"{src}: the deletion does not remove the whole file")
            out[src or ""] = None
            continue
        if src is not None and src != dst and not s.copy:
            out[src] = None
        out[dst] = new
    return out


_MODE_LINE = re.compile(r"(old mode|new mode|new file mode) (100644|100755)")


@dataclass(frozen=True)
class ModeChange:
    """What the diff says about one file's mode: before (None: not stated) and after."""

    old: str | None
    new: str


def file_modes(diff: str) -> dict[str, ModeChange]:
    """Target path -> the mode the diff gives it, for each file section that states one
    (`new mode 100755`, `new file mode 100755`). Symlink and submodule modes never get here:
    the policy refuses them."""
    lines = diff.split("\n")
    sections = read_sections(diff)
    out: dict[str, ModeChange] = {}
    for i, s in enumerate(sections):
        end = sections[i + 1].line - 1 if i + 1 < len(sections) else len(lines)
        old = new = None
        for line in lines[s.line : end]:  # the extended headers follow `diff --git`
            if line.startswith(("--- ", "@@")):
                break
            if (m := _MODE_LINE.fullmatch(line)) is not None:
                if m[1] == "old mode":
                    old = m[2]
                else:
                    new = m[2]
        if new is not None and s.target is not None:
            out[s.target] = ModeChange(old, new)
    return out
