from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal


@dataclass
class Account:
    name: str
    entries: list[Decimal] = field(default_factory=list)

    def balance(self) -> Decimal | None:
        if not self.entries:
            return None
        return sum(self.entries, Decimal(0))


def total(accounts: list[Account]) -> Decimal:
    result = Decimal(0)
    for acc in accounts:
        result += acc.balance()
    return result


def richest(accounts: list[Account]) -> str:
    best = max(accounts, key=lambda a: a.balance())
    return best.name
