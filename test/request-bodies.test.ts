import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { snapshot } from './support/customers';

// How request bodies are read: bytes as sent (raw Buffers here, since fetch would encode a string
// as valid UTF-8), decoded strictly, then parsed. The error shapes themselves are in errors.test.ts.

describe('reading a JSON body', () => {
  let app: TestApp;
  let org: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
  });
  after(() => app.close());

  async function post(path: string, body: Uint8Array, headers: Record<string, string> = {}) {
    const res = await fetch(app.url + path, { method: 'POST', headers: { 'X-Api-Key': org.keys.live, 'Content-Type': 'application/json', ...headers }, body });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  }
  const enrollBytes = (externalIdBytes: number[]) =>
    Buffer.concat([Buffer.from('{"externalCustomerId":"caf'), Buffer.from(externalIdBytes), Buffer.from(`","cardId":"${org.cards.stamps}"}`)]);

  it('refuses bytes that are not UTF-8 with 415 and writes nothing (caf\\xE9 and caf\\xE8 are not one customer)', async () => {
    const before = snapshot(app.db);
    for (const byte of [0xe9, 0xe8]) {
      const res = await post('/api/v1/customers', enrollBytes([byte]));
      assert.equal(res.status, 415, res.text);
      assert.match(res.body.message, /^UNSUPPORTED_MEDIA_TYPE: .*UTF-8/);
      assert.equal(res.body.statusCode, 415);
    }
    assert.deepEqual(snapshot(app.db), before);
  });

  const malformed: { name: string; bytes: number[] }[] = [
    { name: 'a lone continuation byte', bytes: [0x80] },
    { name: 'a truncated two-byte sequence', bytes: [0xc3] },
    { name: 'an overlong encoding of "/"', bytes: [0xc0, 0xaf] },
    { name: 'an encoded UTF-16 surrogate (CESU-8)', bytes: [0xed, 0xa0, 0x80] },
    { name: 'a code point past U+10FFFF', bytes: [0xf4, 0x90, 0x80, 0x80] },
  ];
  for (const c of malformed) {
    it(`refuses ${c.name} with 415`, async () => {
      const res = await post('/api/v1/customers', enrollBytes(c.bytes));
      assert.equal(res.status, 415, res.text);
    });
  }

  // Every spelling of the JSON content type, and the rest, answers as the body reader
  // (routing/json-body.ts) decides.
  const contentTypes: { type: string; status: number }[] = [
    { type: 'application/json', status: 201 },
    { type: 'Application/JSON', status: 201 },
    { type: 'application/json; charset=utf-8', status: 201 },
    { type: 'application/json; charset=UTF-8', status: 201 },
    { type: 'application/json;charset=utf-8', status: 201 },
    { type: 'application/json; charset="utf-8"', status: 201 },
    { type: 'application/json ; charset=us-ascii', status: 201 },
    { type: 'application/vnd.loyalty+json', status: 201 },
    { type: 'application/json; charset=utf-16', status: 415 },
    { type: 'application/json; charset=latin1', status: 415 },
    { type: 'text/json', status: 415 },
    { type: 'application/jsonx', status: 415 },
  ];
  for (const [i, c] of contentTypes.entries()) {
    it(`Content-Type ${c.type}: ${c.status}`, async () => {
      const before = snapshot(app.db);
      const res = await post('/api/v1/customers', enrollBytes([...Buffer.from(`-type-${i}`)]), { 'Content-Type': c.type });
      assert.equal(res.status, c.status, res.text);
      if (c.status === 415) {
        assert.match(res.body.message, /^UNSUPPORTED_MEDIA_TYPE: send the body as /);
        assert.deepEqual(snapshot(app.db), before);
      }
    });
  }

  it('reads real UTF-8, the replacement character itself included', async () => {
    const res = await post('/api/v1/customers', enrollBytes([...Buffer.from('é\uFFFD😀')]));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.externalCustomerId, 'café\uFFFD😀');
  });

  it('reads a body behind a byte order mark', async () => {
    const res = await post('/api/v1/customers', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enrollBytes([...Buffer.from('-bom')])]));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.externalCustomerId, 'caf-bom');
  });

  const encodings: { name: string; encode: (b: Buffer) => Buffer }[] = [
    { name: 'gzip', encode: gzipSync },
    { name: 'deflate', encode: deflateSync },
    { name: 'br', encode: brotliCompressSync },
  ];
  for (const e of encodings) {
    it(`reads a ${e.name}-encoded body`, async () => {
      const res = await post('/api/v1/customers', e.encode(enrollBytes([...Buffer.from(`-${e.name}`)])), { 'Content-Encoding': e.name });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.externalCustomerId, `caf-${e.name}`);
    });
  }

  it('counts the 64 KiB limit after decompression (a small gzip of a large body is 413)', async () => {
    const big = Buffer.from(JSON.stringify({ externalCustomerId: 'x', cardId: org.cards.stamps, name: ' '.repeat(200_000) }));
    const packed = gzipSync(big);
    assert.ok(packed.length < 64 * 1024);
    const res = await post('/api/v1/customers', packed, { 'Content-Encoding': 'gzip' });
    assert.equal(res.status, 413, res.text);
    assert.match(res.body.message, /^PAYLOAD_TOO_LARGE/);
  });

  it('refuses a body that does not decompress with 400 INVALID_JSON', async () => {
    const res = await post('/api/v1/customers', Buffer.from('not gzip at all'), { 'Content-Encoding': 'gzip' });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /^INVALID_JSON/);
  });

  it('refuses invalid UTF-8 inside a compressed body too', async () => {
    const res = await post('/api/v1/customers', gzipSync(enrollBytes([0xe9])), { 'Content-Encoding': 'gzip' });
    assert.equal(res.status, 415, res.text);
  });

  it('refuses a __proto__ key however it is spelt and however deep', async () => {
    for (const body of ['{"\\u005f_proto__":{}}', '{"customFields":{"a":[{"__proto__":1}]}}', `${'['.repeat(5000)}{"__proto__":1}${']'.repeat(5000)}`]) {
      const res = await post('/api/v1/customers', Buffer.from(body));
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, /^INVALID_JSON: a "__proto__" key/);
    }
  });

  it('refuses a declared Content-Length past 64 KiB before reading it', async () => {
    const res = await post('/api/v1/customers', Buffer.alloc(70_000, 0x20));
    assert.equal(res.status, 413, res.text);
  });
});
