'use strict';

const cookie = require('cookie');
const { nanoid } = require('nanoid');

function issue(res, ttlSeconds = 3600) {
  const id = nanoid(32);
  res.setHeader('Set-Cookie', cookie.serialize('sid', id, { httpOnly: true, sameSite: 'lax', maxAge: ttlSeconds }));
  return id;
}

function read(req) {
  const parsed = cookie.parse(req.headers.cookie || '');
  return parsed.sid || null;
}

module.exports = { issue, read };
