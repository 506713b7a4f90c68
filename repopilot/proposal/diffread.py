"""The strict unified-diff reader: every line is a header, a hunk line within its counts, or refused.

`read_sections(diff)` returns what it learned about each file of the diff (`FileSection`) and
raises `Refused` (a docs/CONTRACTS.md reason code and a one-line detail) on anything else. It also reads
path names the way git writes them: `a/`/`b/` prefixes, C-quoted names, tabs before a date.
Policy on the paths (protected, escaping) is `repopilot.proposal.policy`'s business, not this reader's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repopilot.records import RejectReason


class Refused(Exception):
    """One rejection: a reason code of docs/CONTRACTS.md and a one-line detail."""

    def __init__(self, reason: RejectReason, detail: str) -> None:
        detail = (detail.strip().splitlines() or [reason])[0][:300]
        super().__init__(f"{reason}: {detail}")
        self.reason: RejectReason = reason
        self.detail = detail


_MODES: dict[str, RejectReason | None] = {
    "100644": None,
    "100755": None,
    "120000": "symlink",
    "160000": "submodule",
}
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
class FileSection:
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


def read_sections(diff: str) -> list[FileSection]:
    """The strict reader: every line is a header, a hunk line within its counts, or refused."""
    lines = diff.split("\n")
    if lines[-1] == "":
        lines.pop()
    reader = _Reader()
    for n, line in enumerate(lines, 1):
        reader.line(n, line)
    if reader.old or reader.new:
        raise Refused("parse-error", "the last hunk is cut short")
    _check_sections(reader.sections)
    return reader.sections


class _Reader:
    """read_sections' state: the file sections so far, the one being read, and how many old and
    new lines the current hunk still holds."""

    def __init__(self) -> None:
        self.sections: list[FileSection] = []
        self.cur: FileSection | None = None
        self.old = self.new = 0

    def line(self, n: int, line: str) -> None:
        where = f"line {n}"
        if self.old or self.new:
            self._hunk_line(line, where)
            return
        if line.endswith("\r"):
            raise Refused("parse-error", f"{where}: CR line ending in a header")
        cur = self.cur
        if line.startswith("\\ ") and cur is not None and cur.hunks:
            return
        if line.startswith("diff --git "):
            self.cur = FileSection(n, True, _header_names(line[11:], where))
            self.sections.append(self.cur)
        elif line.startswith("--- "):
            self._minus(n, line, where)
        elif line.startswith("+++ ") and cur is not None and cur.minus_seen and not cur.plus_seen:
            cur.new, cur.plus_seen = _strip(line[4:], "b/", where), True
            cur.names += [cur.new] if cur.new else []
        elif (m := _HUNK.match(line)) and cur is not None and cur.plus_seen:
            self.old = int(m[2] if m[2] is not None else 1)
            self.new = int(m[4] if m[4] is not None else 1)
            cur.hunks += 1
        elif line.startswith(("GIT binary patch", "Binary files ")):
            raise Refused("binary", f"{where}: binary patch")
        elif (m := _EXTENDED.fullmatch(line)) and cur and cur.git and not cur.minus_seen:
            _extended(cur, m, line, where)
        else:
            raise Refused("parse-error", f"{where}: not part of a unified diff: {line[:60]!r}")

    def _hunk_line(self, line: str, where: str) -> None:
        tag = line[:1]
        if line.startswith("\\ "):  # `\ No newline at end of file`
            return
        if tag not in (" ", "-", "+", ""):
            raise Refused("parse-error", f"{where}: hunk ends {self.old}/{self.new} lines early")
        if "\x00" in line:
            raise Refused("binary", f"{where}: NUL byte in a hunk")
        if line[1:].startswith("Subproject commit "):
            raise Refused("submodule", f"{where}: submodule pointer change")
        self.old -= tag != "+"
        self.new -= tag != "-"
        if tag in ("+", "-") and self.cur is not None:
            self.cur.changed += 1
        if self.old < 0 or self.new < 0:
            raise Refused("parse-error", f"{where}: hunk longer than its header says")

    def _minus(self, n: int, line: str, where: str) -> None:
        """A `---` line: the old name, in the current git section or a new plain one."""
        cur = self.cur
        if cur is None or cur.minus_seen:
            cur = self.cur = FileSection(n, False)
            self.sections.append(cur)
        cur.old, cur.minus_seen = _strip(line[4:], "a/", where), True
        cur.names += [cur.old] if cur.old else []


def _extended(cur: FileSection, m: re.Match[str], line: str, where: str) -> None:
    """A git extended header line (modes, renames, copies) of the section `cur`."""
    mode = m["m"] or m["im"]
    if mode is not None and mode not in _MODES:
        raise Refused("parse-error", f"{where}: unsupported file mode {mode}")
    if mode is not None and (refused := _MODES[mode]):
        raise Refused(refused, f"{where}: mode {mode} ({refused})")
    cur.created |= line.startswith("new file mode")
    cur.deleted |= line.startswith("deleted file mode")
    cur.mode_change |= line.startswith(("old mode", "new mode"))
    if m["path"] is not None:
        end = line.split(" ")[1]  # from / to
        cur.moves[end] = _unquote(m["path"], where)
        cur.names.append(cur.moves[end])
        cur.copy = m["rc"] == "copy"


def _check_sections(sections: list[FileSection]) -> None:
    """Every section changes something, and no path appears in two of them."""
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
