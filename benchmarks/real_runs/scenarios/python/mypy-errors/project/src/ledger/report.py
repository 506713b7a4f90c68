from __future__ import annotations

from .accounts import Account, total


def line(acc: Account) -> str:
    return acc.name.ljust(20) + acc.balance().to_eng_string()


def report(accounts: list[Account], title) -> list[str]:
    out = [title]
    out.extend(line(a) for a in accounts)
    out.append("TOTAL".ljust(20) + total(accounts))
    return out
