'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { issue, read } = require('../lib/session');

test('issued session id round-trips through the cookie header', () => {
  const headers = {};
  const id = issue({ setHeader: (k, v) => (headers[k] = v) });
  assert.match(headers['Set-Cookie'], /^sid=[\w-]{32}; Max-Age=3600; HttpOnly; SameSite=Lax$/);
  assert.equal(read({ headers: { cookie: headers['Set-Cookie'].split(';')[0] } }), id);
});

test('missing cookie header reads as no session', () => {
  assert.equal(read({ headers: {} }), null);
});
