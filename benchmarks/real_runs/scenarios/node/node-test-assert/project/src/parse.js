'use strict';

function parseMoney(text) {
  const m = /^([$€£])(\d+)(?:\.(\d{2}))?$/.exec(text.trim());
  if (!m) {
    throw new SyntaxError(`not an amount: ${JSON.stringify(text)}`);
  }
  return Number(m[2]) * 100 + Number(m[3] ?? 0);
}

module.exports = { parseMoney };
