'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { formatMoney } = require('../src/money.js');

test('formatMoney', async (t) => {
  await t.test('whole dollars', () => {
    assert.equal(formatMoney(1200), '$12');
  });
  await t.test('keeps two decimals', () => {
    assert.equal(formatMoney(1250), '$12.50');
  });
  await t.test('euro symbol', () => {
    assert.equal(formatMoney(99, 'EUR'), '€0.99');
  });
  await t.test('rejects an unknown currency', () => {
    assert.throws(() => formatMoney(1, 'XYZ'), RangeError);
  });
});
