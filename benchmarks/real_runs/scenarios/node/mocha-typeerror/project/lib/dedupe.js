'use strict';

function dedupe(entries) {
  const seen = new Set();
  return entries.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

module.exports = { dedupe };
