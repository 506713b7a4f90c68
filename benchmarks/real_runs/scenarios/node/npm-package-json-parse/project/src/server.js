const ms = require('ms');
console.log(ms(60000));
