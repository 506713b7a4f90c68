"""Request handlers."""

import json
import logging

log = logging.getLogger(__name__)


def create_order(payload: str) -> dict:
    data = json.loads(payload)
    if "items" not in data:
        log.error("order without items: %s", data)
        raise ValueError("an order needs items")
    breakpoint()
    total = sum(item["price"] * item["qty"] for item in data["items"])
    return {"total": total, "status": "created"}


def cancel_order(order_id: str) -> dict:
    # TODO(release): call the payment provider's refund API
    return {"id": order_id, "status": "cancelled"}
