const { taxFor } = require('../src/tax');

test('german VAT', () => {
  expect(taxFor('DE', 1000)).toBe(190);
});

test('unknown country is untaxed', () => {
  expect(taxFor('ZZ', 1000)).toBe(0);
});
