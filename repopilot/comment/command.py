"""The approval commands a maintainer types on the PR: `/repopilot apply <id>`, `/repopilot reject <id>`.

Only a comment that is exactly one command counts: lowercase, single spaces, the id as the
comment shows it, nothing around it but whitespace. A command quoted, fenced, followed by more
text or written differently is not a command, so a reply that merely mentions one never acts.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

# ASCII whitespace only: a no-break space or a zero-width character is not "surrounding whitespace".
# Leading blank lines are fine; on the command's own line at most 3 spaces and no tab, since
# 4 spaces or a tab make it an indented code block on GitHub (shown, not said).
_COMMAND = re.compile(
    r"(?:[ \t]*\r?\n)*[ ]{0,3}/repopilot (apply|reject) ([a-z0-9-]{6,40})[ \t\r\n]*"
)


class Command(NamedTuple):
    """A parsed command; unpacks as `(action, proposal_id)`."""

    action: Literal["apply", "reject"]
    proposal_id: str


def parse_command(body: str) -> Command | None:
    """The command `body` consists of, or None."""
    match = _COMMAND.fullmatch(body)
    if match is None:
        return None
    action: Literal["apply", "reject"] = "apply" if match.group(1) == "apply" else "reject"
    return Command(action=action, proposal_id=match.group(2))


# `/repopilot learn <id>` or `/repopilot learn <job id> L<line> [category]` (issue 21): the same
# rule, the whole comment is the command.
_LEARN = re.compile(
    r"(?:[ \t]*\r?\n)*[ ]{0,3}/repopilot learn "
    r"(?:(?P<id>learn-[a-z0-9-]{1,34})|(?P<job>\d{1,20}) L(?P<line>[1-9]\d{0,8})(?: (?P<cat>[a-z_]{2,30}))?)"
    r"[ \t\r\n]*"
)


class LearnCommand(NamedTuple):
    """A parsed `/repopilot learn`: an offered pattern's id, or a job id, a line and a category."""

    offer_id: str | None = None
    job: str | None = None
    line: int | None = None
    category: str | None = None


def parse_learn(body: str) -> LearnCommand | None:
    """The learn command `body` consists of, or None."""
    m = _LEARN.fullmatch(body)
    if m is None:
        return None
    if m.group("id"):
        return LearnCommand(offer_id=m.group("id"))
    return LearnCommand(job=m.group("job"), line=int(m.group("line")), category=m.group("cat"))
