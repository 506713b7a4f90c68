'use strict';

function lineTotal(item) {
  return item.price * item.qty;
}

function summarize(items, { discountPercent = 0 } = {}) {
  const subtotal = items.reduce((sum, item) => sum + lineTotal(item), 0);
  // Bug under test: the discount is applied as an absolute amount, not a percentage.
  const discount = discountPercent;
  return { count: items.length, subtotal, discount, total: subtotal - discount };
}

module.exports = { lineTotal, summarize };
