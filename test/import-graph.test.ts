// The structure the code is held to (scripts/import-graph.mjs): imports between the top-level
// folders of src/ make no circle, and at most two go from a lower layer up to a higher one. The
// script's check is tried on small trees first, so a passing run on src/ means something.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const script = path.join(import.meta.dirname, '..', 'scripts', 'import-graph.mjs');
const run = promisify(execFile);

/** The script's exit code and output, with `--check` (and `--src` for a fixture tree). */
async function check(src?: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [script, '--check', '--list', ...(src ? ['--src', src] : [])]);
    return { code: 0, stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

const figures = (stdout: string) => ({
  circles: Number(/^circles: (\d+)/m.exec(stdout)![1]),
  arrowsUp: Number(/^arrows up: (\d+)/m.exec(stdout)![1]),
});

const root = mkdtempSync(path.join(tmpdir(), 'wl-graph-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A src/ tree of the given files (path → text). */
function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('the import graph’s check', () => {
  it('refuses two folders that import each other, and takes a type-only import as none', async () => {
    const circle = await check(tree('circle', { 'cards/a.ts': "import { b } from '../customers/b';\nexport const a = b;\n", 'customers/b.ts': "import { a } from '../cards/a';\nexport const b = 1;\nexport const c = a;\n" }));
    assert.equal(circle.code, 1, circle.stdout);
    assert.match(circle.stdout, /^circles: 1 {2}\[cards customers\]$/m);
    const typeOnly = await check(tree('type-only', { 'cards/a.ts': "import { b } from '../customers/b';\nexport const a = b;\n", 'customers/b.ts': "import type { A } from '../cards/a';\nexport const b = 1;\nexport type B = A;\n" }));
    assert.equal(typeOnly.code, 0, typeOnly.stdout);
  });

  it('counts a re-export as an import', async () => {
    const res = await check(tree('re-export', { 'cards/a.ts': "export { b } from '../customers/b';\n", 'customers/b.ts': "export * from '../cards/a';\nexport const b = 1;\n" }));
    assert.equal(res.code, 1, res.stdout);
  });

  it('allows two arrows up, not three', async () => {
    const two = { 'lib/a.ts': "import { c } from '../cards/c';\nimport { o } from '../orgs/o';\nexport const a = [c, o];\n", 'cards/c.ts': 'export const c = 1;\n', 'orgs/o.ts': 'export const o = 1;\n' };
    const allowed = await check(tree('two-up', two));
    assert.equal(allowed.code, 0, allowed.stdout);
    assert.deepEqual(figures(allowed.stdout), { circles: 0, arrowsUp: 2 });
    const three = await check(tree('three-up', { ...two, 'web/w.ts': "import { c } from '../cards/c';\nexport const w = c;\n" }));
    assert.equal(three.code, 1, three.stdout);
    assert.equal(figures(three.stdout).arrowsUp, 3);
    assert.match(three.stdout, /up {2}web -> cards/);
  });

  it('a feature importing a page folder is an arrow up', async () => {
    const res = await check(tree('page-up', { 'mail/m.ts': "import { face } from '../customer-pages/face';\nexport const m = face;\n", 'customer-pages/face.ts': 'export const face = 1;\n' }));
    assert.match(res.stdout, /up {2}mail -> customer-pages/);
  });
});

describe('src/', () => {
  it('has no circle and at most two arrows up', async () => {
    const res = await check();
    assert.equal(res.code, 0, res.stdout);
    const { circles, arrowsUp } = figures(res.stdout);
    assert.equal(circles, 0, res.stdout);
    assert.ok(arrowsUp <= 2, res.stdout);
  });
});
