"""The repository's memory of failures (issue 28, docs/MEMORY.md): `seen.json` on the branch
`repopilot-memory`, read and written through the contents API.

The file is a `SeenFile` (repopilot/run_records.py), format version 1: `{"version": 1, "records":
[...]}`, oldest first, one record per line (the history diffs by record); unknown fields ignored.

- Read: `GET /contents/seen.json?ref=repopilot-memory`; the last `READ` (200) records are used
  by the Action's comment path, any other number (or all of them, `limit=None`) by a caller that
  asks (`repopilot report` reads every record the file keeps).
- Write: read the file and its blob sha, merge this run's records in by key (run id and job: a
  re-run's record replaces the earlier one), keep the last `KEEP` (1000) and at most `MAX_BYTES`,
  `PUT` with that sha. A stale sha (409, or 422 when the file appeared meanwhile) means another
  run wrote first: read again, merge again, retry; at most `ATTEMPTS` times. Nothing is lost:
  every write carries every record it read.
- A missing branch is created as an orphan commit holding only `seen.json` (Git Database API:
  tree, commit without parents, ref): no workflow file is on that branch, so its pushes run
  nothing, whatever the token, and it holds no copy of the code.
- A corrupt file (not JSON, not the format, too large for the contents API) is reported once
  and replaced on the next write by a new list; its bytes stay in the branch's history.

Every request is counted against `budget`. No failure raises: a refused token (403 on a fork's
read-only one), a 404, a rate limit, an unreachable API or a corrupt file comes back as one
warning line (`Loaded.warning`, `Written.warning`) and costs only the memory.
"""

from __future__ import annotations

import base64
import binascii
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import requests
from github import GithubException
from github.Repository import Repository

from repopilot.github.seen_keep import READ, dump, merge
from repopilot.run_records import SeenFile, SeenRecord

BRANCH = "repopilot-memory"
PATH = "seen.json"
ATTEMPTS = 4  # writes tried against a file another run keeps changing
BUDGET = 14  # requests: 1 read; per write attempt 2, plus 4 to create the branch once
PAUSE = 0.5  # seconds: a random wait up to this many times the attempt, between attempts
_CONFLICT = frozenset({409, 422})
WHERE = f"{BRANCH}:{PATH}"


class _Stop(Exception):
    """The memory gives up for this run (one line: why)."""


# what ends the memory's work for this run, as one warning: the API's answers and odd payloads
_TROUBLE = (_Stop, GithubException, requests.RequestException, KeyError, TypeError, ValueError)


@dataclass(frozen=True)
class Loaded:
    """The newest records (at most the reader's limit, oldest first), or a warning saying why there are none
    (a missing file is no warning: nothing was remembered yet)."""

    records: tuple[SeenRecord, ...] = ()
    warning: str | None = None
    refused: bool = False  # the token may not read it (403): it may not write it either
    absent: bool = False  # no file (or no branch) yet: nothing was remembered


@dataclass(frozen=True)
class Written:
    """How many records this run added or replaced; `warning` when the write failed or when
    a corrupt file was replaced."""

    added: int = 0
    warning: str | None = None
    requests: int = 0


@dataclass(frozen=True)
class _File:
    sha: str | None  # the blob sha to PUT against; None: there is no file
    records: tuple[SeenRecord, ...] = ()
    corrupt: str | None = None  # why the file there is not a memory file


class SeenStore:
    """One run's access to the memory; `read` and `append` each return, never raise."""

    def __init__(
        self,
        repo: Repository,
        budget: int = BUDGET,
        attempts: int = ATTEMPTS,
        pause: Callable[[int], None] | None = None,
    ):
        self.repo, self.budget, self.attempts, self.used = repo, budget, attempts, 0
        self.refused = ""  # the last refusal of a write, said when the attempts run out
        self.branch = BRANCH
        # runs that collide once would collide again in lockstep: a random wait parts them
        self.pause = pause or (lambda n: time.sleep(random.uniform(0, PAUSE * n)))

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        if self.used >= self.budget:
            raise _Stop(f"its request budget ({self.budget}) ran out")
        self.used += 1
        _, data = self.repo.requester.requestJsonAndCheck(method, f"{self.repo.url}{path}", **kw)
        return data

    def _fetch(self) -> _File:
        try:
            data = self._call("GET", f"/contents/{PATH}", parameters={"ref": self.branch})
        except GithubException as exc:
            if exc.status != 404:
                raise
            return _File(None)
        if not isinstance(data, dict) or not isinstance(data.get("sha"), str):
            return _File(None, corrupt="the contents API did not describe a file there")
        sha = data["sha"]
        if data.get("encoding") != "base64" or not isinstance(data.get("content"), str):
            return _File(sha, corrupt="it is larger than the contents API serves (1 MB)")
        try:
            raw = base64.b64decode(data["content"])
            return _File(sha, tuple(SeenFile.parse(raw).records))
        except (ValueError, binascii.Error) as exc:
            return _File(sha, corrupt=str(exc).splitlines()[0][:200])

    def read(self, limit: int | None = READ) -> Loaded:
        """The last `limit` records (None: every record the file holds, at most KEEP when this
        code wrote it); a corrupt file or an API failure is one warning."""
        try:
            found = self._fetch()
        except _TROUBLE as exc:
            refused = isinstance(exc, GithubException) and exc.status == 403
            why = f"RepoPilot's memory ({WHERE}) was not read: {_why(exc)}"
            why += "; the job needs `contents: read` (or set `memory: false`)" * refused
            return Loaded(warning=why, refused=refused)
        if found.corrupt:
            return Loaded(warning=_corrupt(found.corrupt))
        if found.sha is None:
            return Loaded(absent=True)
        kept = found.records
        return Loaded(kept if limit is None else kept[max(0, len(kept) - limit) :])

    def append(self, new: Sequence[SeenRecord], message: str) -> Written:
        """Merge `new` into the file (module docstring); `message` is the commit's."""
        note: str | None = None
        try:
            for attempt in range(self.attempts):
                if attempt:
                    self.pause(attempt)
                found = self._fetch()
                if found.corrupt:
                    note = _corrupt(found.corrupt)
                merged = merge(found.records, new)
                if merged == list(found.records):
                    return Written(0, note, self.used)  # an earlier attempt's write landed
                if self._put(found, dump(merged), message):
                    return Written(len(new), note, self.used)
            last = f"; the last answer: {self.refused}" if self.refused else ""
            raise _Stop(f"other runs kept changing it ({self.attempts} attempts{last})")
        except _TROUBLE as exc:
            why = f"RepoPilot's memory ({WHERE}) was not updated: {_why(exc)}"
            if isinstance(exc, GithubException) and exc.status == 403:
                why += "; the job that posts needs `contents: write` (or set `memory: false`)"
            return Written(0, f"{note} {why}" if note else why, self.used)

    def _put(self, found: _File, text: str, message: str) -> bool:
        """Write `text` over the file `found` describes; False when another run was first."""
        content = base64.b64encode(text.encode()).decode()
        body: dict[str, Any] = {"message": message, "content": content, "branch": self.branch}
        if found.sha is not None:
            body["sha"] = found.sha
        elif not self._branch_exists():
            return self._create_branch(text, message)
        try:
            self._call("PUT", f"/contents/{PATH}", input=body)
        except GithubException as exc:
            if exc.status in _CONFLICT:  # a stale sha; or a rule refusing it: said at the end
                self.refused = _why(exc).removeprefix("the GitHub API answered ")[:200]
                return False
            raise
        return True

    def _branch_exists(self) -> bool:
        try:
            self._call("GET", f"/git/ref/heads/{self.branch}")
        except GithubException as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def _create_branch(self, text: str, message: str) -> bool:
        """The branch as one orphan commit holding only the file; False when it appeared."""
        entry = {"path": PATH, "mode": "100644", "type": "blob", "content": text}
        tree = self._call("POST", "/git/trees", input={"tree": [entry]})
        commit = self._call(
            "POST", "/git/commits", input={"message": message, "tree": tree["sha"], "parents": []}
        )
        try:
            ref = {"ref": f"refs/heads/{self.branch}", "sha": commit["sha"]}
            self._call("POST", "/git/refs", input=ref)
        except GithubException as exc:
            if exc.status == 422:  # another run created it meanwhile: merge into theirs
                return False
            raise
        return True


def _corrupt(why: str) -> str:
    return (
        f"RepoPilot's memory {WHERE} is not a memory file ({why}); it is ignored, and the next "
        "write starts a new list (the old bytes stay in the branch's history)."
    )


def _why(exc: BaseException) -> str:
    if isinstance(exc, _Stop):
        return str(exc)
    if isinstance(exc, GithubException):
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        hint = " (a read-only token, e.g. a fork's)" * (exc.status == 403)
        return f"the GitHub API answered {exc.status}{hint}: {message or 'no message'}"
    if isinstance(exc, requests.RequestException):
        return f"the GitHub API could not be reached ({exc.__class__.__name__})"
    return f"the GitHub API's answer was not understood ({exc.__class__.__name__})"
