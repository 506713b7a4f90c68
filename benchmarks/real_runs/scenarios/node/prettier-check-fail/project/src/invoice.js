'use strict';
const { formatMoney } = require("./money");

function lineTotal(line) { return line.quantity * line.unitCents }

function renderInvoice(invoice) {
  const lines = invoice.lines.map((line) => `${line.description.padEnd(30)} ${formatMoney(lineTotal(line), invoice.currency)}`);
  const total = invoice.lines.reduce((sum, line) => sum + lineTotal(line), 0);
  return [...lines, '-'.repeat(42), `${'TOTAL'.padEnd(30)} ${formatMoney(total, invoice.currency)}`].join('\n');
}

module.exports = { renderInvoice, lineTotal };
