'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseMoney } = require('../src/parse.js');

test('parseMoney reads cents', () => {
  assert.equal(parseMoney('$12.50'), 1250);
  assert.equal(parseMoney('£3'), 300);
});

test('parseMoney rejects garbage', () => {
  assert.throws(() => parseMoney('twelve'), /not an amount/);
});
