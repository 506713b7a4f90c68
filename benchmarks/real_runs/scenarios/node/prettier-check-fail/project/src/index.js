'use strict';

const { renderInvoice } = require('./invoice');
const { formatMoney } = require('./money');

module.exports = { renderInvoice, formatMoney };
