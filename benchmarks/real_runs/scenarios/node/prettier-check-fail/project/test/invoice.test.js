'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { renderInvoice, formatMoney } = require('../src/index');

test('formats negative amounts', () => {
  assert.equal(formatMoney(-1234), '-12.34 EUR');
});

test('renders a total line', () => {
  const text = renderInvoice({
    currency: 'EUR',
    lines: [
      { description: 'Hosting', quantity: 2, unitCents: 1500 },
      { description: 'Support', quantity: 1, unitCents: 9900 },
    ],
  });
  assert.match(text, /TOTAL\s+129\.00 EUR$/);
});
