module.exports = require('lodash.debouce');
