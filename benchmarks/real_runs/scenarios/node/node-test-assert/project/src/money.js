'use strict';

const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

function formatMoney(cents, currency = 'USD') {
  const symbol = SYMBOLS[currency];
  if (symbol === undefined) {
    throw new RangeError(`unknown currency: ${currency}`);
  }
  // Bug under test: dropping trailing zeros loses the second decimal.
  const amount = String(cents / 100);
  return `${symbol}${amount}`;
}

module.exports = { formatMoney };
