"""Learn one pattern from a log and the line that is its cause (docs/CONTRACTS.md Contract 6).

The line is redacted first (the comment's rules: a secret never reaches a repository's pattern
file), then generalised (engine/learn/tokens.py). Candidates go from general to specific: the
line's start up to its second, third, ... fixed word (kept only when it picks out that line
alone in its own log), then the whole line. The first candidate that passes every check
(engine/learn/check.py) is the pattern; when none does, `LearnRefused` says why.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repopilot.engine.learn import check
from repopilot.engine.learn.tokens import Piece, fixed_words, pieces, regex_of
from repopilot.engine.library.loader import Pattern, load_file
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.errors import InputError, PatternError
from repopilot.evidence.runners import bare_exit
from repopilot.logs.reader import JobLog, iter_lines, open_logs
from repopilot.logs.textnorm import body
from repopilot.records import AssignedCategory
from repopilot.safety.redact import clean_lines

PRIORITY = 98  # a maintainer said this line is the cause: above the built-in patterns
CONFIDENCE = 0.9
NEAR = 6  # lines either side looked at for `no_match` examples
MAX_LINE = 400  # a longer line is a payload, not a tool's message


class LearnRefused(InputError):
    """No safe pattern can be made from that line: the message says why."""


@dataclass(frozen=True, slots=True)
class LearnRequest:
    """What to learn from: `line` of the log at `path` is the cause."""

    path: str
    line: int
    category: AssignedCategory = "other"
    title: str | None = None
    hint: str | None = None
    base_logs: tuple[str, ...] = ()
    pattern_id: str | None = None
    source_name: str | None = None  # the file named in `source:` (default: the path's name)


@dataclass(frozen=True, slots=True)
class Learned:
    """The learned pattern: its file data (the YAML wire form) and the loaded pattern."""

    data: dict[str, Any]
    pattern: Pattern
    own_hits: tuple[int, ...] = field(default=())

    @property
    def id(self) -> str:
        return self.pattern.id


Lint = Callable[[Pattern], list[str]]


def learn(
    req: LearnRequest,
    library: Sequence[Pattern],
    lint: Lint | None = None,
    job: JobLog | None = None,
) -> Learned:
    """The pattern for `req`, checked against `library` (the built-in library and the repository's
    patterns it will sit on); LearnRefused when no candidate passes."""
    job = job or _job(req.path, req.line)
    own = check.LogText(req.path, tuple(body(x.text) for x in iter_lines(job)))
    if not 1 <= req.line <= len(own.lines):
        raise LearnRefused(f"{req.path}: no line {req.line} (the log has {len(own.lines)})")
    text = own.lines[req.line - 1]
    _refuse_line(req, text)
    # redacted as the comment redacts: the window as one text (a token wrapped across lines)
    lo, hi = max(1, req.line - NEAR), min(len(own.lines), req.line + NEAR)
    window, _ = clean_lines(own.lines[lo - 1 : hi])
    safe = _scrub(window[req.line - lo])
    near = [x for i, x in enumerate(window, lo) if i != req.line and _wordy(x)]
    ps = pieces(safe)
    indented = safe[:1].isspace()
    bases = [_log_text(b) for b in req.base_logs]
    reasons: list[str] = []
    for regex, whole, head in _candidates(ps, indented):
        data = _data(req, regex, safe, head, near)
        try:
            p = _load(data)
        except PatternError as exc:
            reasons.append(str(exc).rsplit(": ", 1)[-1])
            continue
        why, hits = _check(p, req, text, library, lint, bases, own, job, whole)
        if why is None:
            return Learned(data, p, tuple(hits))
        reasons.append(why)
    raise LearnRefused(
        f"{req.path}:{req.line}: no safe pattern: {reasons[-1] if reasons else 'no candidate'}"
    )


# A run of 16+ token characters with upper and lower case and a digit: a key or a fragment of
# one that redaction did not recognise (a PEM body line whose BEGIN is out of sight). It never
# reaches a pattern file: it becomes a redaction mark (and so a class in the regex).
_TOKENISH = re.compile(
    r"(?<![\w+/=-])(?=[\w+/=-]*[A-Z])(?=[\w+/=-]*[a-z])(?=[\w+/=-]*\d)[\w+/=-]{16,}"
)
_WORD = re.compile(r"\b[A-Za-z]{2,}\b")


def _scrub(line: str) -> str:
    return _TOKENISH.sub("[REDACTED:token]", line)


def _wordy(line: str) -> bool:
    """A line fit to be a `no_match` example: words a person reads, nothing token-like."""
    return (
        len(_WORD.findall(line)) >= 3
        and "[REDACTED:" not in line
        and _TOKENISH.search(line) is None
        and len(line) <= MAX_LINE
    )


def _job(path: str, line: int) -> JobLog:
    jobs = open_logs(path)
    if not jobs:
        raise LearnRefused(f"{path}: no job log in it")
    return jobs[0]


def _log_text(path: str) -> check.LogText:
    lines: list[str] = []
    for job in open_logs(path):
        lines.extend(body(x.text) for x in iter_lines(job))
    return check.LogText(path, tuple(lines))


def _refuse_line(req: LearnRequest, text: str) -> None:
    where = f"{req.path}:{req.line}"
    if not text.strip():
        raise LearnRefused(f"{where}: the line is empty")
    if bare_exit(text):
        raise LearnRefused(f"{where}: the runner's exit line is never evidence")
    if is_passing_test(text):
        raise LearnRefused(f"{where}: the line reports a passing test")
    if len(text) > MAX_LINE:
        raise LearnRefused(f"{where}: the line is longer than {MAX_LINE} characters")


def _candidates(ps: list[Piece], indented: bool) -> list[tuple[str, bool, list[Piece]]]:
    """(regex, whole line?, its pieces) from general to specific: prefixes ending at a fixed word
    with two or more fixed words in them, then the whole line."""
    out: list[tuple[str, bool, list[Piece]]] = []
    for i, p in enumerate(ps):
        head = ps[: i + 1]
        if p.kind == "fixed" and fixed_words(head) >= 2 and i + 1 < len(ps):
            loose = _loose(head)
            if loose != head:  # the words between the first and the last may be names too
                out.append((regex_of(loose, indented, False), False, loose))
            out.append((regex_of(head, indented, False), False, head))
    out.append((regex_of(ps, indented, True), True, ps))
    return out


def _loose(head: list[Piece]) -> list[Piece]:
    """`head` with its plain words between the first fixed piece and the last as `\\w+`."""
    fixed = [i for i, p in enumerate(head) if p.kind == "fixed"]
    lo, hi = fixed[0], fixed[-1]
    return [
        Piece("class", r"\w+", p.text) if lo < i < hi and p.kind == "fixed" and p.text.isalpha()
        else p
        for i, p in enumerate(head)
    ]  # fmt: skip


def _check(
    p: Pattern,
    req: LearnRequest,
    text: str,
    library: Sequence[Pattern],
    lint: Lint | None,
    bases: list[check.LogText],
    own: check.LogText,
    job: JobLog,
    whole: bool,
) -> tuple[str | None, list[int]]:
    if not check.matches(p, text):
        return "it does not match the line (redaction changed its shape)", []
    for why in (check.safe_route(p), check.library_no_match(p, library), check.base_hits(p, bases)):
        if why:
            return why, []
    hits = check.own_hits(p, own)
    if not whole and hits != [req.line]:
        return f"its start also matches line {next(h for h in hits if h != req.line)}", hits
    if lint is not None:
        problems = lint(p)
        if problems:
            return f"patterns lint: {problems[0]}", hits
    return check.verdict_line(p, library, job, req.line), hits


def _data(
    req: LearnRequest, regex: str, safe: str, ps: list[Piece], near: list[str]
) -> dict[str, Any]:
    compiled = re.compile(regex)
    short = [x for x in near if len(x) <= MAX_LINE]
    no_match = [x for x in dict.fromkeys(short) if not compiled.search(x)][:3]
    if not no_match:
        no_match = ["learned pattern: a line it must not take"]
    m = compiled.search(safe)
    caps = {k: v for k, v in (m.groupdict() if m else {}).items() if v is not None}
    example: Any = {"line": safe, "captures": caps} if caps else safe
    source = req.source_name or Path(req.path).name
    out: dict[str, Any] = {
        "id": req.pattern_id or _id(req.category, ps, regex),
        "category": req.category,
        "source": f"learned from {source}:{req.line}",
        "regex": regex,
        "priority": PRIORITY,
        "confidence": CONFIDENCE,
        "title": req.title or _title(ps),
    }
    if req.hint:
        out["hint"] = req.hint
    out["examples"] = {"match": [example], "no_match": no_match}
    return {"ecosystem": "learned", "patterns": [out]}


def _id(category: str, ps: list[Piece], regex: str) -> str:
    words = [p.text.lower() for p in ps if p.kind == "fixed" and any(c.isalpha() for c in p.text)]
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(words[:3])).strip("-")[:40] or "line"
    digest = hashlib.sha256(regex.encode()).hexdigest()[:6]
    return f"learned.{category.replace('_', '-')}.{slug}-{digest}"


def _title(ps: list[Piece]) -> str:
    parts = []
    for p in ps:
        if p.kind == "class":
            parts.append(f"{{{p.capture}}}" if p.capture and "(?P<" + p.capture + ">" in p.regex
                         else "…")  # fmt: skip
        else:
            parts.append(" " if p.kind == "space" else p.text)
    title = "".join(parts).strip()
    return title if len(title) <= 100 else title[:99] + "…"


def _load(data: dict[str, Any]) -> Pattern:
    """The pattern as the library loads it (schema, compile, prefilter literals)."""
    import yaml

    with tempfile.TemporaryDirectory(prefix="repopilot-learn-") as tmp:
        path = Path(tmp) / "learned.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
        return load_file(path)[0]


def to_yaml(learned: Learned) -> str:
    import yaml

    return yaml.safe_dump(learned.data, sort_keys=False, allow_unicode=True, width=100)
