const { withRetry, parseRetryAfter, RetryError } = require('../src/retry');

describe('withRetry', () => {
  test('returns the first success', async () => {
    await expect(withRetry(async () => 'ok')).resolves.toBe('ok');
  });

  test('retries after a failure (logs it)', async () => {
    const fn = jest.fn(async (i) => {
      if (i < 2) throw new Error('ECONNRESET socket hang up');
      return 200;
    });
    await expect(withRetry(fn)).resolves.toBe(200);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  test('gives up with a RetryError', async () => {
    const fail = async () => {
      throw new Error('503 Service Unavailable');
    };
    await expect(withRetry(fail, { attempts: 2 })).rejects.toThrow(RetryError);
    await expect(withRetry(fail, { attempts: 2 })).rejects.toThrow(
      'gave up after 2 attempts: 503 Service Unavailable',
    );
  });
});

describe('parseRetryAfter', () => {
  test('seconds to milliseconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
  });

  test.each([['-1'], ['soon']])('rejects %p', (value) => {
    expect(() => parseRetryAfter(value)).toThrow(RangeError);
  });

  test('rejects an empty header', () => {
    expect(() => parseRetryAfter('')).toThrow(TypeError);
  });
});
