'use strict';
const assert = require('node:assert/strict');
const { dedupe } = require('../lib/dedupe');

describe('dedupe', function () {
  it('keeps the first entry of each id', function () {
    const out = dedupe([{ id: 'a', n: 1 }, { id: 'b' }, { id: 'a', n: 2 }]);
    assert.deepEqual(out.map((e) => e.id), ['a', 'b']);
    assert.equal(out[0].n, 1);
  });

  it('returns an empty list unchanged', function () {
    assert.deepEqual(dedupe([]), []);
  });
});
