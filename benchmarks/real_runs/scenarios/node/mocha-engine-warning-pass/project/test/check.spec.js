import assert from 'node:assert/strict';
import { check, MissingVariableError } from '../lib/check.js';

describe('check', function () {
  it('counts the variables that are set', function () {
    assert.equal(check(['A', 'B'], { A: '1', B: '2' }), 2);
  });

  it('throws MissingVariableError listing every missing name', function () {
    assert.throws(() => check(['A', 'B', 'C'], { B: 'x' }), (err) => {
      assert.ok(err instanceof MissingVariableError);
      assert.deepEqual(err.names, ['A', 'C']);
      return true;
    });
  });

  it.skip('reads a .env file', function () {});
});
