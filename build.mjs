// @ts-check
// Bundles the whole server into one script, dist/wallet-loyalty.mjs, that runs with nothing beside
// it but node_modules/better-sqlite3 (a native addon, built for the machine it runs on). The files
// the program reads at run time are embedded in it (src/lib/embedded-assets.ts says how).
//
//   node build.mjs                  build into dist/
//   node build.mjs --outdir <dir>   build elsewhere (the tests do)
//   node build.mjs --if-stale       build only when the bundle is missing or older than the sources
//                                   (npm install's `prepare`, npm start)
//
// Each build writes beside the script what it was made from (wallet-loyalty.inputs.json: the
// SHA-256 of every project file it read, plus this script and package-lock.json), so a stale bundle
// is recognised by content, not by clocks, in ~20 ms, and an edit to src/ is never run silently.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { COMMENT_END_ESCAPED } from './src/launcher.mjs';

export const ROOT = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_OUTDIR = path.join(ROOT, 'dist');
const SCRIPT = 'wallet-loyalty.mjs';
const INPUTS = 'wallet-loyalty.inputs.json';
const MANIFEST = 'src/lib/embedded-assets.json';
const LAUNCHER = 'src/launcher.mjs';
/** Read by every build though esbuild does not report them: a change to any may change the bundle. */
const ALWAYS_INPUTS = ['build.mjs', 'package-lock.json', MANIFEST, LAUNCHER];

/** @typedef {{ file: string, contentType?: string } | { entry: string, contentType?: string }} AssetSource */
/** @typedef {{ browserBuild: Record<string, unknown>, assets: Record<string, AssetSource> }} AssetManifest */
/** @typedef {{ bytes: number, sha256: string }} TrailerIndex */

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    throw new Error('esbuild is not installed: run `npm install` (with the dev dependencies) to build dist/wallet-loyalty.mjs');
  }
}

/**
 * Loads every asset of a manifest as the bundle embeds it (the trailer that ends the script, see
 * assetTrailer), and names the project files it read.
 * @param {AssetManifest} manifest
 * @param {string} root folder the manifest's paths start from
 * @returns {Promise<{ trailer: string, inputs: string[] }>}
 */
export async function embedAssets(manifest, root) {
  const esbuild = await loadEsbuild();
  /** @type {[string, Buffer][]} */
  const files = [];
  /** @type {string[]} */
  const inputs = [];
  for (const [name, source] of Object.entries(manifest.assets)) {
    let bytes;
    if ('entry' in source) {
      const result = await esbuild.build({ ...manifest.browserBuild, absWorkingDir: root, entryPoints: [source.entry], write: false, metafile: true, logLevel: 'silent' });
      const [output, ...more] = result.outputFiles;
      if (!output || more.length > 0) throw new Error(`${source.entry} must bundle to exactly one file`);
      bytes = Buffer.from(output.contents);
      inputs.push(...Object.keys(result.metafile.inputs));
    } else {
      bytes = await readFile(path.join(root, source.file));
      inputs.push(source.file);
    }
    files.push([name, bytes]);
  }
  return { trailer: assetTrailer(files), inputs };
}

const TRAILER_HEAD = '/* wallet-loyalty assets: one line each, "<name> <base64 of the brotli-compressed bytes>"; build.mjs writes them, src/lib/embedded-assets.ts reads them at first use.';

/**
 * The assets as the bundle carries them: after its code, in one block comment, one line per asset.
 * Not as string literals in the code: V8 scans a long literal far slower than a comment, and the
 * 1.4 MB scanner .wasm as a literal cost every start of the script 10-20 ms of compile time
 * (issue 13), though only the counter page ever asks for it. The code holds only the trailer's length and
 * SHA-256 (src/lib/embedded-assets.ts). Base64 has no `*` and no newline, so no asset can end the
 * comment or its line early.
 * Each asset is brotli-compressed first: Node reads, decodes and scans the whole script at every
 * start, and the trailer was 1.66 MB of its 4.5 (the .wasm 1.46 MB of that); compressed it is
 * ~0.6 MB, ~10 ms less of each start and 1 MB less of source kept in memory (issue 13). Quality 5:
 * quality 11 saved another 50 KB of the .wasm for 3.8 s of each build; the first use of the .wasm
 * decompresses it in ~9 ms.
 * @param {[string, Buffer][]} files
 */
function assetTrailer(files) {
  const lines = files.map(([name, bytes]) => {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`asset name ${JSON.stringify(name)}: only letters, digits, ".", "_" and "-"`);
    const compressed = brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    return `${name} ${compressed.toString('base64')}\n`;
  });
  return `\n${TRAILER_HEAD}\n${lines.join('')}*/\n`;
}

/**
 * What the code of the bundle holds about its trailer (`define`d as globalThis.__WALLET_EMBEDDED_ASSETS__).
 * @param {string} trailer
 * @returns {TrailerIndex}
 */
export function trailerIndex(trailer) {
  const bytes = Buffer.from(trailer, 'latin1');
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Builds the bundle into outdir: the script, its source map and the list of its inputs.
 * @param {{ outdir?: string, quiet?: boolean }} [options]
 */
export async function buildBundle({ outdir = DEFAULT_OUTDIR, quiet = false } = {}) {
  const esbuild = await loadEsbuild();
  /** @type {AssetManifest} */
  const manifest = JSON.parse(await readFile(path.join(ROOT, MANIFEST), 'utf8'));
  const assets = await embedAssets(manifest, ROOT);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli.ts'],
    outfile: path.join(outdir, SCRIPT),
    bundle: true,
    platform: 'node',
    target: 'node20',
    // CommonJS, which src/launcher.mjs compiles with V8's code cache (see there); the script
    // around it is an ES module. A dynamic import() becomes a require() (only Node modules are
    // left to load at run time), and import.meta.url the script's URL.
    format: 'cjs',
    supported: { 'dynamic-import': false },
    sourcemap: true,
    external: ['better-sqlite3'],
    define: { 'globalThis.__WALLET_EMBEDDED_ASSETS__': JSON.stringify(trailerIndex(assets.trailer)), 'import.meta.url': '__wlScriptUrl' },
    banner: { js: 'var __wlScriptUrl = require("node:url").pathToFileURL(__filename).href;' },
    metafile: true,
    write: false,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [oneMimeDb, lazyPackages],
  });
  const inputs = [...Object.keys(result.metafile.inputs), ...assets.inputs, ...ALWAYS_INPUTS]
    // Dependencies change only through npm, which changes package-lock.json and reruns `prepare`.
    .filter((file) => !file.split('/').includes('node_modules') && !file.startsWith('<'));
  const record = JSON.stringify({ files: Object.fromEntries(await Promise.all([...new Set(inputs)].sort().map(async (file) => [file, await hashFile(file)]))) }, null, 2);
  await mkdir(outdir, { recursive: true });
  // Each file is written aside and renamed into place, the list of inputs last: a process starting
  // the script meanwhile runs a whole old or a whole new one, never half of either.
  const code = result.outputFiles.find((f) => f.path.endsWith('.mjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!code || !map || result.outputFiles.length !== 2) throw new Error('esbuild wrote other files than the script and its map');
  const script = await withLauncher(latin1Only(code.contents).toString('utf8'));
  const outputs = [
    { path: code.path, contents: Buffer.concat([Buffer.from(script.text, 'utf8'), Buffer.from(assets.trailer, 'latin1')]) },
    { path: map.path, contents: Buffer.from(shiftSourceMap(map.text, script.programLine)) },
  ];
  for (const { path: file, contents } of [...outputs, { path: path.join(outdir, INPUTS), contents: Buffer.from(record) }]) {
    const aside = `${file}.${process.pid}.tmp`;
    await writeFile(aside, contents);
    await rename(aside, file);
  }
  if (!quiet) console.log(`built ${path.relative(process.cwd(), path.join(outdir, SCRIPT)) || SCRIPT}`);
  return path.join(outdir, SCRIPT);
}

/**
 * The script: src/launcher.mjs, the line that calls it, then the program (esbuild's CommonJS, in
 * the function wrapper Node gives a CommonJS module) as the only content of a comment in
 * programText(), each `*\/` in it escaped. Returns the text and the script's line (0-based) where
 * the program's own first line is.
 * @param {string} program
 */
async function withLauncher(program) {
  if (program.includes('\u0000')) throw new Error('build: the program holds a NUL character, which the launcher uses to escape a comment end');
  // Strict, as the same code was as an ES module: esbuild's banner goes before its own "use strict".
  const compiled = `(function (exports, require, module, __filename, __dirname) {"use strict";\n${program}\n})`;
  const sha256 = createHash('sha256').update(compiled, 'utf8').digest('hex');
  const launcher = await readFile(path.join(ROOT, LAUNCHER), 'utf8');
  const opening = 'function programText() {/*';
  // The lines before programText's: the launcher's, the blank line after it, and the call's.
  const lineOffset = (launcher.match(/\n/g)?.length ?? 0) + 2;
  const call = `runProgram({ text: programText, sha256: '${sha256}', lineOffset: ${lineOffset}, columnOffset: ${opening.length} });\n`;
  const text = `${launcher}\n${call}${opening}${compiled.replaceAll('*/', COMMENT_END_ESCAPED)}*/}\n`;
  if (!text.split('\n', lineOffset + 1)[lineOffset]?.startsWith(opening)) throw new Error('build: the program does not start where the launcher is told');
  return { text, programLine: lineOffset + 1 };
}

/**
 * esbuild's source map of the program, moved down to where the program starts in the script.
 * @param {string} json
 * @param {number} lines
 */
function shiftSourceMap(json, lines) {
  const map = JSON.parse(json);
  map.mappings = ';'.repeat(lines) + map.mappings;
  return JSON.stringify(map);
}

/**
 * One copy of mime-db in the bundle. Koa's type-is reads mime-db 1.54 and its accepts a nested
 * 1.52; each builds its tables of some 2,400 types when the script starts (~12 ms of every cold
 * start, issue 13). Both mime-types versions read the same data format, and 1.54 holds every type
 * 1.52 does.
 * @type {import('esbuild').Plugin}
 */
const oneMimeDb = {
  name: 'one-mime-db',
  setup(build) {
    const mimeDb = createRequire(path.join(ROOT, 'package.json')).resolve('mime-db');
    build.onResolve({ filter: /^mime-db$/ }, () => ({ path: mimeDb }));
  },
};

/**
 * Packages (CommonJS ones, and one of Node's own) loaded at their first use instead of at the
 * script's start, each with the exports the bundle uses (a stand-in with just these; a new use
 * needs its name here):
 * - mime-types: Koa (its response, type-is and accepts) requires it at load, and it builds its
 *   extension and type tables from mime-db's 2,400 types right then, ~20 ms of every start
 *   (issue 13), though the API sets its content types itself and the console asks at its first
 *   form or file.
 * - node-forge: ~10 ms to evaluate, needed only with Apple Wallet configured (its credentials and
 *   passkit-generator's signature).
 * - node:tls: ~10 ms to load alone, needed only by a webhook delivery to an https URL.
 *   An ESM bundle loads each module it imports before its first line runs. (dns and child_process
 *   are no use here: the server's listen loads both.)
 * Each importer keeps the version it resolves to.
 * @type {Record<string, { functions?: string[], values?: string[] }>}
 */
const LAZY_PACKAGES = {
  'mime-types': { functions: ['charset', 'contentType', 'extension', 'lookup'], values: ['charsets', 'extensions', 'types'] },
  'node-forge': { values: ['asn1', 'md', 'pkcs7', 'pki', 'util'] },
  'node:tls': { functions: ['connect'] },
};

/** @type {import('esbuild').Plugin} */
const lazyPackages = {
  name: 'lazy-packages',
  setup(build) {
    const names = Object.keys(LAZY_PACKAGES);
    build.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, async (args) => {
      // The stand-in's own require of the real module, and a Node module: left to esbuild.
      if (args.pluginData === 'real' || args.namespace === 'lazy-package') return undefined;
      if (isBuiltin(args.path)) return { path: args.path, namespace: 'lazy-package', pluginData: args.path };
      const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      // Named from the project root: the bundle's comments carry the name, not this machine's paths.
      return { path: path.relative(ROOT, real.path), namespace: 'lazy-package', pluginData: args.path };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
      const lazy = LAZY_PACKAGES[args.pluginData];
      if (!lazy) throw new Error(`lazy-packages: ${args.pluginData} is not in LAZY_PACKAGES`);
      const { functions = [], values = [] } = lazy;
      return {
        resolveDir: ROOT,
        contents: [
          'let real;',
          `const load = () => (real ??= require(${JSON.stringify(isBuiltin(args.path) ? args.path : `./${args.path}`)}));`,
          'module.exports = {',
          ...functions.map((name) => `  ${name}: (...args) => load().${name}(...args),`),
          ...values.map((name) => `  get ${name}() { return load().${name}; },`),
          '};',
        ].join('\n'),
      };
    });
  },
};

/**
 * The script with every character beyond Latin-1 written as a \\u escape. esbuild escapes them in
 * string literals but leaves them in comments and template literals (an em dash, an arrow), and
 * one is enough for V8 to hold the whole 4.5 MB source as a two-byte string: 9 MB of heap instead
 * of 4.5 for as long as the server runs. An escape means the same character in a template
 * literal, a regular expression or a comment; only a template's .raw would differ, and no tag the
 * bundle uses reads .raw for such text. A backslash right before one would change its meaning, so
 * the build stops there instead.
 * @param {Uint8Array} contents
 */
function latin1Only(contents) {
  const text = Buffer.from(contents).toString('utf8');
  const escaped = text.replace(/[\u0100-\uffff]/g, (char, at) => {
    if (text[at - 1] === '\\') throw new Error(`build: a backslash before U+${char.charCodeAt(0).toString(16)} at offset ${at}; write the escape in the source instead`);
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return Buffer.from(escaped, 'utf8');
}

/** @param {string} file path from ROOT; null when it does not exist */
async function hashFile(file) {
  try {
    return createHash('sha256').update(await readFile(path.join(ROOT, file))).digest('hex');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Why the bundle in outdir no longer matches the sources, or null when it does.
 * @param {string} [outdir]
 */
export async function staleReason(outdir = DEFAULT_OUTDIR) {
  if (!existsSync(path.join(outdir, SCRIPT)) || !existsSync(path.join(outdir, INPUTS))) return `${SCRIPT} has not been built`;
  /** @type {{ files: Record<string, string | null> }} */
  const record = JSON.parse(readFileSync(path.join(outdir, INPUTS), 'utf8'));
  for (const [file, hash] of Object.entries(record.files)) {
    if ((await hashFile(file)) !== hash) return `${file} changed since the last build`;
  }
  return null;
}

/**
 * The bundle's path, rebuilt first if the sources changed since it was built. Without sources
 * beside it (a copy of dist/ alone) it runs as it is.
 * @param {string} [outdir]
 */
export async function freshBundle(outdir = DEFAULT_OUTDIR) {
  const script = path.join(outdir, SCRIPT);
  if (!existsSync(path.join(ROOT, 'src')) && existsSync(script)) return script;
  const reason = await staleReason(outdir);
  if (reason) {
    process.stderr.write(`wallet-loyalty: ${reason}; building ${path.relative(process.cwd(), script) || SCRIPT}\n`);
    await buildBundle({ outdir, quiet: true });
  }
  return script;
}

function isMain() {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(realpathSync(script)).href === import.meta.url;
}

if (isMain()) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' }, 'if-stale': { type: 'boolean' } } });
  const outdir = values.outdir ? path.resolve(values.outdir) : DEFAULT_OUTDIR;
  try {
    if (values['if-stale']) await freshBundle(outdir);
    else await buildBundle({ outdir });
  } catch (error) {
    process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
