const { lineTotal, summarize } = require('../src/cart');

describe('lineTotal', () => {
  test('multiplies price by quantity', () => {
    expect(lineTotal({ price: 250, qty: 3 })).toBe(750);
  });
});

describe('summarize', () => {
  const items = [
    { sku: 'A-1', price: 1000, qty: 2 },
    { sku: 'B-7', price: 500, qty: 1 },
  ];

  test('without a discount', () => {
    expect(summarize(items)).toEqual({ count: 2, subtotal: 2500, discount: 0, total: 2500 });
  });

  test('applies a percentage discount', () => {
    expect(summarize(items, { discountPercent: 10 })).toEqual({
      count: 2,
      subtotal: 2500,
      discount: 250,
      total: 2250,
    });
  });

  test('an empty cart totals zero', () => {
    expect(summarize([]).total).toBe(0);
  });
});
