'use strict';
const assert = require('node:assert/strict');
const { normalizeEntry } = require('../lib/normalize');

describe('normalizeEntry', function () {
  it('reads an RSS item', function () {
    const e = normalizeEntry({
      guid: 'rss-1',
      title: '  Release 1.0  ',
      author: { name: 'Ada' },
      pubDate: 'Tue, 10 Jun 2025 04:00:00 GMT',
    });
    assert.equal(e.title, 'Release 1.0');
    assert.equal(e.author, 'Ada');
  });

  it('reads an Atom entry without an author', function () {
    const e = normalizeEntry({ id: 'urn:x:2', title: 'Notes', updated: '2025-06-11T08:00:00Z' });
    assert.equal(e.author, undefined);
    assert.equal(e.published, '2025-06-11T08:00:00.000Z');
  });

  it('rejects an entry with no date', function () {
    assert.throws(() => normalizeEntry({ id: 'x', title: 't', author: { name: 'n' } }), RangeError);
  });
});
