import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from '../lib/queue.js';

describe('Queue', () => {
  test('runs a job once when it succeeds', async () => {
    const q = new Queue();
    assert.equal(await q.run({ id: 1, handler: async () => 'done' }), 'done');
  });

  test('retries a flaky job', async () => {
    const q = new Queue();
    const result = await q.run({
      id: 2,
      handler: async (n) => {
        if (n < 3) throw new Error('Timeout: upstream did not answer');
        return n;
      },
    });
    assert.equal(result, 3);
  });

  test('dead-letters a job that always fails', async () => {
    const q = new Queue({ maxAttempts: 2 });
    await assert.rejects(
      q.run({ id: 3, handler: async () => { throw new Error('ECONNREFUSED 127.0.0.1:6379'); } }),
      { message: 'job 3 failed 2 times' },
    );
    assert.deepEqual(q.dead, [3]);
  });

  test('rejects a job without a handler', async () => {
    await assert.rejects(new Queue().run({ id: 4 }), TypeError);
  });

  test('priority lanes', { todo: 'not implemented yet' }, () => {});
});
