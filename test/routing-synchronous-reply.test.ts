import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { synchronousReply } from '../src/routing/route';

// An idempotent route's handler runs inside its write's transaction, with or without a key
// (src/http/bind.ts): a handler that returned a promise would await with the transaction open.

describe('the reply of a handler that runs inside a transaction', () => {
  it('is taken as it is when the handler answered at once', () => {
    const reply = { status: 201, body: { ok: true } };
    assert.equal(synchronousReply(reply), reply);
  });

  it('is refused when the handler returned a promise', async () => {
    const pending = Promise.resolve({ status: 201, body: {} });
    assert.throws(() => synchronousReply(pending), /must be synchronous: it runs inside the write's transaction/);
    await pending;
  });
});
