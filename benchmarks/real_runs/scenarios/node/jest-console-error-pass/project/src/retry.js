'use strict';

class RetryError extends Error {
  constructor(attempts, cause) {
    super(`gave up after ${attempts} attempts: ${cause.message}`);
    this.name = 'RetryError';
    this.attempts = attempts;
    this.cause = cause;
  }
}

async function withRetry(fn, { attempts = 3, delayMs = 0, log = console } = {}) {
  let last;
  for (let i = 1; i <= attempts; i++) {
    try {
      return await fn(i);
    } catch (err) {
      last = err;
      log.error(`ERROR attempt ${i}/${attempts} failed: ${err.message}`);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs * i));
    }
  }
  throw new RetryError(attempts, last);
}

function parseRetryAfter(header) {
  if (header === undefined || header === '') throw new TypeError('Retry-After header is empty');
  const n = Number(header);
  if (Number.isNaN(n) || n < 0) throw new RangeError(`invalid Retry-After: ${header}`);
  return n * 1000;
}

module.exports = { withRetry, parseRetryAfter, RetryError };
