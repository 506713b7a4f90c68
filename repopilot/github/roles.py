"""Who may run a `/repopilot` command: the commenter's repository role, from the collaborator
permission API (docs/THREAT_MODEL.md §7: `author_association` is not authorization)."""

from __future__ import annotations

from collections.abc import Collection

from github import GithubException
from github.Repository import Repository

from repopilot.github.events import Account


def refusal(repo: Repository, user: Account, allowed: Collection[str], doing: str) -> str | None:
    """Why `user` may not do `doing` (a bot, or a `role_name` outside `allowed`), or None.
    A role GitHub will not tell (403, 404) is `none`."""
    if user.type == "Bot" or user.login.endswith("[bot]"):
        return "commands from bots are not accepted"
    try:
        role = repo.get_collaborator_role_name(user.login)
    except GithubException as exc:
        if exc.status not in (403, 404):
            raise
        role = "none"
    if role in allowed:
        return None
    return (
        f"`{user.login}` has the role `{role}`; {doing} needs one of: {', '.join(sorted(allowed))}"
    )
