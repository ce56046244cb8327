// Bundles the whole server into one node script (dist/wallet-loyalty.mjs).
// better-sqlite3 stays external: it is a native addon that must match the machine it runs on.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';

await mkdir('dist', { recursive: true });
await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/wallet-loyalty.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: ['better-sqlite3'],
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __wlCreateRequire } from 'node:module'; const require = __wlCreateRequire(import.meta.url);" },
  logLevel: 'info',
});
// The schema is read at run time next to the script.
await copyFile('schema.sql', 'dist/schema.sql');
console.log('built dist/wallet-loyalty.mjs');
