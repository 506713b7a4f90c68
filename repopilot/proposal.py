"""Validate a proposed diff (SECURITY.md §5) and apply a validated one to file texts in Python.

`validate` reads the diff three ways and refuses it unless all agree and obey the policy: a strict
line-by-line reader (every line accounted for, hunk counts exact), `unidiff`, and git itself
(`git apply --numstat`, which lists the paths git would write). With a checkout it also runs
`git apply --check` there and refuses paths that resolve outside it or through a symlink.

Known limit: unidiff misreads a `diff --git` line whose path contains ` b/` (`a b/x`), so such
diffs are refused as `parse-error` (safe, but a legitimate diff there cannot be proposed).
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import subprocess
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from unidiff import PatchSet

from repopilot.records import Proposal, Rejection


@dataclass(frozen=True)
class Policy:
    """Limits and protected paths for proposals; defaults follow SECURITY.md §5."""

    max_bytes: int = 64 * 1024
    """Largest diff accepted, in UTF-8 bytes."""
    max_files: int = 20
    """Most file sections in one diff."""
    max_changed_lines: int = 400
    """Most added plus removed lines."""
    protected_globs: tuple[str, ...] = ()
    """Extra fnmatch globs (case-insensitive, `*` crosses `/`) refused as `protected-path`."""
    git_timeout: float = 20.0
    """Seconds each git call may take."""


class Refused(Exception):
    """One rejection: a reason code of DESIGN.md and a one-line detail."""

    def __init__(self, reason: str, detail: str) -> None:
        detail = (detail.strip().splitlines() or [reason])[0][:300]
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


# Directories and file names whose change could run code in CI or change who reviews what.
_PROTECTED_DIRS = frozenset({".github", ".git", "git~1", ".husky", ".githooks"})
_PROTECTED_NAMES = frozenset(
    {"action.yml", "action.yaml", "dockerfile", "containerfile", "codeowners", ".gitmodules"}
)
_MODES = {"100644": None, "100755": None, "120000": "symlink", "160000": "submodule"}
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: |$)")
_DATE = re.compile(r"\d{4}-\d\d-\d\d[ T]")
_OCTAL = re.compile(r"[0-3][0-7][0-7]")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_EXTENDED = re.compile(
    r"(?P<mode>old mode|new mode|deleted file mode|new file mode) (?P<m>\d+)"
    r"|index [0-9a-f]+\.\.[0-9a-f]+(?: (?P<im>\d+))?|(?:dis)?similarity index \d+%"
    r"|(?P<rc>rename|copy) (?:from|to) (?P<path>.+)"
)
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass
class _Section:
    """What the strict reader learned about one file of the diff."""

    line: int
    git: bool
    names: list[str] = field(default_factory=list)  # every path mentioned, without a/ b/
    old: str | None = None  # from `--- `; None for /dev/null
    new: str | None = None  # from `+++ `
    minus_seen: bool = False
    plus_seen: bool = False
    moves: dict[str, str] = field(default_factory=dict)  # rename/copy from/to
    copy: bool = False
    created: bool = False  # `new file mode`
    deleted: bool = False  # `deleted file mode`
    mode_change: bool = False  # `old mode` / `new mode`
    hunks: int = 0
    changed: int = 0

    @property
    def source(self) -> str | None:
        if self.created:
            return None
        return self.moves.get("from", self.old if self.plus_seen else self.names[0])

    @property
    def target(self) -> str | None:
        if self.deleted:
            return None
        return self.moves.get("to", self.new if self.plus_seen else self.names[-1])


def _unquote(raw: str, where: str) -> str:
    """A git C-quoted path (`"a/\\303\\251"`) as text; a plain path unchanged."""
    if not raw.startswith('"'):
        return raw
    if len(raw) < 2 or not raw.endswith('"'):
        raise Refused("parse-error", f"{where}: unterminated quoted path")
    out, body, i = bytearray(), raw[1:-1], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
        elif _OCTAL.fullmatch(body, i + 1, i + 4):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        elif body[i + 1 : i + 2] in _ESCAPES:
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            raise Refused("parse-error", f"{where}: bad escape in quoted path")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused("path-escape", f"{where}: path is not valid UTF-8") from exc


def _strip(raw: str, prefix: str, where: str, tabbed: bool = True) -> str | None:
    """The path of a `---`/`+++` name (None for /dev/null), its `a/`/`b/` prefix removed.

    `tabbed`: a tab may end the name (git adds one after names with spaces, `diff -u` a date).
    """
    if raw.startswith('"'):  # git ends a name with a space by a tab: `+++ "b/\303\251 t"\t`
        q = _QUOTED.match(raw)
        after = raw[q.end() : q.end() + 1] if q else "?"
        if after and not (tabbed and after == "\t"):
            raise Refused("parse-error", f"{where}: bad quoted path")
        name, tail = _unquote(q.group(0), where), raw[q.end() + 1 :]  # type: ignore[union-attr]
    else:
        name, _, tail = raw.partition("\t") if tabbed else (raw, "", "")
    if tail and not _DATE.match(tail):
        raise Refused("path-escape", f"{where}: tab inside the path {raw!r}")
    if name == "/dev/null":
        return None
    if name.startswith("/"):
        raise Refused("path-escape", f"{where}: absolute path {name!r}")
    if not name.startswith(prefix):
        raise Refused("parse-error", f"{where}: path {name!r} must start with {prefix!r}")
    return name[len(prefix) :]


def _header_names(rest: str, where: str) -> list[str]:
    """Paths of a `diff --git a/X b/Y` line; unquoted names with spaces give every split."""
    if rest.startswith('"') and (q := _QUOTED.match(rest)):
        pairs = [(q.group(0), rest[q.end() + 1 :])]
    else:
        pairs = [(rest[:i], rest[i + 1 :]) for i, c in enumerate(rest) if c == " "]
        pairs = [p for p in pairs if p[0].startswith("a/") and p[1].startswith(("b/", '"b/'))]
        pairs = [p for p in pairs if p[0][2:] == p[1][2:]] or pairs
    if not pairs:
        raise Refused("parse-error", f"{where}: cannot read the file names of `diff --git`")
    names = []
    for left, right in pairs:
        names += [_strip(left, "a/", where, False), _strip(right, "b/", where, False)]
    return [n for n in names if n is not None]


def check_path(path: str, policy: Policy = Policy()) -> None:
    """Raise Refused when `path` (relative, as git writes it) escapes or is protected."""
    bad = [c for c in path if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if not path or path.startswith("/") or "\\" in path or bad:
        what = f"control character U+{ord(bad[0]):04X}" if bad else "absolute or empty or `\\`"
        raise Refused("path-escape", f"{path!r}: {what}")
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise Refused("path-escape", f"{path!r}: empty, `.` or `..` segment")
    # Windows and macOS read `.git.`, `.git ` and `git~1` as `.git`: compare what they would see.
    low = [p.lower().rstrip(" .") or p for p in parts]
    if (
        _PROTECTED_DIRS.intersection(low[:-1])
        or low[-1] in _PROTECTED_NAMES | _PROTECTED_DIRS
        or low[-1].startswith("dockerfile.")
        or any(fnmatch.fnmatchcase(path.lower(), g.lower()) for g in policy.protected_globs)
    ):
        raise Refused("protected-path", f"{path}: changes to this path are not proposed")


def _read(diff: str) -> list[_Section]:
    """The strict reader: every line is a header, a hunk line within its counts, or refused."""
    lines = diff.split("\n")
    if lines[-1] == "":
        lines.pop()
    sections: list[_Section] = []
    cur: _Section | None = None
    old = new = 0
    for n, line in enumerate(lines, 1):
        where = f"line {n}"
        if old or new:
            tag = line[:1]
            if line.startswith("\\ "):  # `\ No newline at end of file`
                continue
            if tag not in (" ", "-", "+", ""):
                raise Refused("parse-error", f"{where}: hunk ends {old}/{new} lines early")
            if "\x00" in line:
                raise Refused("binary", f"{where}: NUL byte in a hunk")
            if line[1:].startswith("Subproject commit "):
                raise Refused("submodule", f"{where}: submodule pointer change")
            old -= tag != "+"
            new -= tag != "-"
            if tag in ("+", "-") and cur is not None:
                cur.changed += 1
            if old < 0 or new < 0:
                raise Refused("parse-error", f"{where}: hunk longer than its header says")
            continue
        if line.endswith("\r"):
            raise Refused("parse-error", f"{where}: CR line ending in a header")
        if line.startswith("\\ ") and cur is not None and cur.hunks:
            continue
        if line.startswith("diff --git "):
            cur = _Section(n, True, _header_names(line[11:], where))
            sections.append(cur)
        elif line.startswith("--- "):
            if cur is None or cur.minus_seen:
                cur = _Section(n, False)
                sections.append(cur)
            cur.old, cur.minus_seen = _strip(line[4:], "a/", where), True
            cur.names += [cur.old] if cur.old else []
        elif line.startswith("+++ ") and cur is not None and cur.minus_seen and not cur.plus_seen:
            cur.new, cur.plus_seen = _strip(line[4:], "b/", where), True
            cur.names += [cur.new] if cur.new else []
        elif (m := _HUNK.match(line)) and cur is not None and cur.plus_seen:
            old = int(m[2] if m[2] is not None else 1)
            new = int(m[4] if m[4] is not None else 1)
            cur.hunks += 1
        elif line.startswith(("GIT binary patch", "Binary files ")):
            raise Refused("binary", f"{where}: binary patch")
        elif (m := _EXTENDED.fullmatch(line)) and cur and cur.git and not cur.minus_seen:
            mode = m["m"] or m["im"]
            if mode is not None and mode not in _MODES:
                raise Refused("parse-error", f"{where}: unsupported file mode {mode}")
            if mode is not None and _MODES[mode]:
                raise Refused(_MODES[mode], f"{where}: mode {mode} ({_MODES[mode]})")
            cur.created |= line.startswith("new file mode")
            cur.deleted |= line.startswith("deleted file mode")
            cur.mode_change |= line.startswith(("old mode", "new mode"))
            if m["path"] is not None:
                end = line.split(" ")[1]  # from / to
                cur.moves[end] = _unquote(m["path"], where)
                cur.names.append(cur.moves[end])
                cur.copy = m["rc"] == "copy"
        else:
            raise Refused("parse-error", f"{where}: not part of a unified diff: {line[:60]!r}")
    if old or new:
        raise Refused("parse-error", "the last hunk is cut short")
    if not sections:
        raise Refused("parse-error", "no file in the diff")
    seen: set[str] = set()
    for s in sections:
        if not (s.hunks or s.moves or s.created or s.deleted or s.mode_change):
            raise Refused("parse-error", f"line {s.line}: file section that changes nothing")
        for path in {s.source, s.target} - {None}:
            if path in seen:
                raise Refused("parse-error", f"line {s.line}: {path} appears twice in the diff")
            seen.add(path)  # type: ignore[arg-type]
    return sections


def _git(args: list[str], cwd: Path, diff: str, timeout: float) -> subprocess.CompletedProcess:
    # Nothing from the caller's GIT_* environment or global config may change what git reads.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CEILING_DIRECTORIES=str(cwd.resolve().parent),  # never a repository above cwd
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    cmd = ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "apply"]
    try:
        return subprocess.run(
            cmd + args, cwd=cwd, input=diff.encode(), capture_output=True, timeout=timeout, env=env
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Refused("does-not-apply", f"git apply could not run: {exc}") from exc


def _git_paths(diff: str, cwd: Path, timeout: float) -> set[str]:
    """The paths git itself reads from the diff (`--numstat -z`: target, or source if deleted)."""
    done = _git(["--numstat", "-z", "-"], cwd, diff, timeout)
    if done.returncode:
        raise Refused("parse-error", _first_line(done.stderr, "git cannot read the diff"))
    return {
        rec.split("\t", 2)[2]
        for rec in done.stdout.decode("utf-8", "replace").split("\0")
        if rec.count("\t") >= 2
    }


def _first_line(stderr: bytes, default: str) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    return text.splitlines()[0][:300] if text else default


def _inside(repo: Path, paths: list[str]) -> None:
    """Refuse paths that leave the checkout or pass through a symlink or a directory."""
    root = repo.resolve()
    for path in paths:
        probe = root
        for part in path.split("/"):
            probe = probe / part
            if probe.is_symlink():
                raise Refused("symlink", f"{path}: {probe.relative_to(root)} is a symlink")
        if not os.path.realpath(probe).startswith(str(root) + os.sep):
            raise Refused("path-escape", f"{path}: resolves outside the checkout")
        if probe.is_dir():
            raise Refused("submodule", f"{path}: is a directory in the checkout (a submodule?)")


def check(diff: str, repo: Path | None = None, policy: Policy = Policy()) -> list[_Section]:
    """Every check of `validate`; raises Refused, returns the file sections."""
    if not isinstance(diff, str) or not diff.strip():
        raise Refused("parse-error", "empty diff")
    try:
        size = len(diff.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise Refused("parse-error", f"not valid UTF-8 text: {exc.reason}") from exc
    if size > policy.max_bytes:
        raise Refused("too-large", f"{size} bytes (limit {policy.max_bytes})")
    sections = _read(diff)
    for s in sections:
        for name in s.names:
            check_path(name, policy)
    if len(sections) > policy.max_files:
        raise Refused("too-large", f"{len(sections)} files (limit {policy.max_files})")
    changed = sum(s.changed for s in sections)
    if changed > policy.max_changed_lines:
        raise Refused("too-large", f"{changed} changed lines (limit {policy.max_changed_lines})")
    try:
        patch = PatchSet(diff)
    except Exception as exc:  # a third-party parser on hostile text: any failure is a parse error
        raise Refused("parse-error", f"unidiff: {exc}") from exc
    if len(patch) != len(sections) or sum(f.added + f.removed for f in patch) != changed:
        raise Refused("parse-error", "unidiff and the strict reader disagree on this diff")
    mentioned = {n for s in sections for n in s.names}
    with tempfile.TemporaryDirectory(prefix="repopilot-diff-") as scratch:
        for path in _git_paths(diff, repo or Path(scratch), policy.git_timeout) - mentioned:
            raise Refused("parse-error", f"git reads path {path!r} that the diff does not name")
    if repo is not None:
        _inside(repo, sorted(mentioned))
        done = _git(["--check", "-"], repo, diff, policy.git_timeout)
        if done.returncode:
            raise Refused("does-not-apply", _first_line(done.stderr, "git apply --check failed"))
    return sections


def validate(
    diff: str,
    repo: Path | None,
    *,
    diagnosis: str = "",
    confidence: float = 0.0,
    policy: Policy = Policy(),
) -> Proposal | Rejection:
    """A Proposal for a diff that passes every check (against `repo` when given), else why not."""
    try:
        sections = check(diff, None if repo is None else Path(repo), policy)
    except Refused as exc:
        return Rejection(reason=exc.reason, detail=exc.detail)
    sha = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    files = dict.fromkeys(p for s in sections for p in (s.target or s.source,) if p)
    return Proposal(
        id=f"rp-{sha[:10]}",
        diff=diff,
        sha256=sha,
        files=tuple(files),
        diagnosis=diagnosis,
        confidence=confidence,
    )


def validator_for(repo: Path | None) -> Callable[[str], Proposal | Rejection]:
    """The diff check an agent run uses: `validate` against `repo`."""
    return lambda diff: validate(diff, repo)


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


def _patch(text: str, hunks, path: str) -> str:
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
    diff: str, read: Callable[[str], str | None], *, policy: Policy = Policy()
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
