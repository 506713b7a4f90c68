"""A tiny stock ledger."""

from __future__ import annotations


class OutOfStockError(Exception):
    """Raised when a removal exceeds what is on hand."""


class Stock:
    def __init__(self) -> None:
        self._items: dict[str, int] = {}

    def add(self, sku: str, qty: int) -> None:
        if qty <= 0:
            raise ValueError(f"quantity must be positive, got {qty}")
        self._items[sku] = self._items.get(sku, 0) + qty

    def remove(self, sku: str, qty: int) -> None:
        have = self._items.get(sku, 0)
        if qty > have:
            raise OutOfStockError(f"{sku}: requested {qty}, have {have}")
        self._items[sku] = have - qty

    def count(self, sku: str) -> int:
        return self._items.get(sku, 0)
