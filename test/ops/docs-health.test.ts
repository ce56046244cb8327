// The docs show /healthz as this version answers it: the example's version and schemaVersion are
// the real ones, so an operator checking an upgrade compares with the right numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { latestVersion } from '../../src/db/migrate';
import { VERSION } from '../../src/lib/version';
import { startTestApp } from '../support/app';
import { ROOT } from '../support/cli';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the /healthz examples in the docs', () => {
  it('name this version, its schema version and every field the server answers with', async () => {
    const app = await startTestApp();
    let fields: string[];
    try {
      fields = Object.keys((await app.request('GET', '/healthz')).body);
    } finally {
      await app.close();
    }
    for (const file of ['docs/going-live.md', 'docs/upgrading.md']) {
      const examples = [...read(file).matchAll(/^\s*(\{ "status": "ok".*\})$/gm)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
      assert.ok(examples.length > 0, `${file} shows /healthz`);
      for (const example of examples) {
        assert.equal(example.schemaVersion, latestVersion(), `${file}: schemaVersion`);
        assert.equal(example.version, VERSION, `${file}: version`);
        assert.deepEqual(Object.keys(example), fields, `${file}: the fields, in order`);
      }
    }
  });

  it('the upgrade page’s other mentions of the schema version are the real one', () => {
    const text = read('docs/upgrading.md');
    assert.match(text, new RegExp(`\\(${VERSION.replace(/\./g, '\\.')}: ${latestVersion()};`));
    for (const m of text.matchAll(/before-schema-(\d+)-/g)) assert.equal(Number(m[1]), latestVersion());
    // The example upgrades from 0.1.0, whose schema was version 20.
    assert.match(text, new RegExp(`from version 20 to ${latestVersion()};`));
  });

  it('CHANGELOG.md has a section for this version', () => {
    assert.match(read('CHANGELOG.md'), new RegExp(`^## \\[${VERSION.replace(/\./g, '\\.')}\\]`, 'm'));
  });
});
