// @ts-check
// Bundles the whole server into one ES module script, dist/wallet-loyalty.mjs, that runs with
// nothing beside it but node_modules/better-sqlite3 (a native addon, built for the machine it runs
// on). The files the program reads at run time are embedded in it with esbuild's loaders
// (src/lib/embedded-assets.ts says how).
//
//   node build.mjs                  build into dist/
//   node build.mjs --outdir <dir>   build elsewhere (the tests do)
//   node build.mjs --if-stale       build only when the bundle is missing or older than the sources
//                                   (npm install's `prepare`, npm start)
//
// Each build writes beside the script what it was made from (wallet-loyalty.inputs.json: the
// SHA-256 of every project file it read, plus this script and package-lock.json), so a stale bundle
// is recognised by content, not by clocks, and an edit to src/ is never run silently.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_OUTDIR = path.join(ROOT, 'dist');
const SCRIPT = 'wallet-loyalty.mjs';
const INPUTS = 'wallet-loyalty.inputs.json';
/** Held (created exclusively, holding the builder's pid) by the one process building into outdir. */
const LOCK = 'wallet-loyalty.build.lock';
const MANIFEST = 'src/lib/embedded-assets.json';
/** The module the build replaces with one that carries the assets (see assetsPlugin). */
const BUNDLED_ASSETS = path.join(ROOT, 'src/lib/bundled-assets.ts');
/** Read by every build though esbuild does not report them: a change to any may change the bundle. */
const ALWAYS_INPUTS = ['build.mjs', 'package-lock.json', MANIFEST];
const ASSET_NAMESPACE = 'wallet-asset';

/** @typedef {{ file: string, contentType?: string } | { entry: string, contentType?: string }} AssetSource */
/** @typedef {{ browserBuild: Record<string, unknown>, assets: Record<string, AssetSource> }} AssetManifest */

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    // `npm ci --omit=dev` on a checkout whose bundle was not built (or is older than the sources).
    throw new Error(
      'esbuild (a dev dependency) is not installed, so dist/wallet-loyalty.mjs cannot be built: install with the dev dependencies first (`npm ci` builds it), then `npm ci --omit=dev --omit=optional` keeps only what the server runs (docs/going-live.md, "The service")',
    );
  }
}

/**
 * Every asset of a manifest as the bundle embeds it: a file's bytes, or a browser entry point
 * bundled by esbuild with the manifest's browserBuild options. Also names the project files read.
 * @param {AssetManifest} manifest
 * @param {string} root folder the manifest's paths start from
 * @returns {Promise<{ assets: Map<string, Uint8Array>, inputs: string[] }>}
 */
export async function loadAssets(manifest, root) {
  const esbuild = await loadEsbuild();
  /** @type {Map<string, Uint8Array>} */
  const assets = new Map();
  /** @type {string[]} */
  const inputs = [];
  for (const [name, source] of Object.entries(manifest.assets)) {
    if ('entry' in source) {
      const result = await esbuild.build({ ...manifest.browserBuild, absWorkingDir: root, entryPoints: [source.entry], write: false, metafile: true, logLevel: 'silent' });
      const [output, ...more] = result.outputFiles;
      if (!output || more.length > 0) throw new Error(`${source.entry} must bundle to exactly one file`);
      assets.set(name, output.contents);
      inputs.push(...Object.keys(result.metafile.inputs));
    } else {
      assets.set(name, await readFile(path.join(root, source.file)));
      inputs.push(source.file);
    }
  }
  return { assets, inputs };
}

/**
 * Puts in the place of src/lib/bundled-assets.ts (which exports nothing when the sources run) a
 * module that carries each asset: UTF-8 text through esbuild's `text` loader (the scripts, CSS and
 * schema stay readable strings), other bytes (the scanner's 1 MB .wasm) as base64 inside a getter
 * that decodes them when first asked. V8 makes a string of a literal only when it compiles the
 * function holding it, so until the counter's scanner is first served the process holds neither
 * the 1.4 MB of base64 nor the bytes (esbuild's `binary` loader decodes at start, and the literal
 * then stays on the heap for as long as the process runs).
 * @param {Map<string, Uint8Array>} assets
 * @returns {import('esbuild').Plugin}
 */
export function assetsPlugin(assets) {
  const names = [...assets.keys()];
  return {
    name: 'embedded-assets',
    setup(build) {
      build.onLoad({ filter: /bundled-assets\.ts$/ }, (args) => {
        if (args.path !== BUNDLED_ASSETS) return undefined;
        const text = names.map((name) => isUtf8(/** @type {Uint8Array} */ (assets.get(name))));
        const imports = names.flatMap((name, i) => (text[i] ? [`import asset${i} from ${JSON.stringify(`${ASSET_NAMESPACE}:${name}`)};`] : []));
        const entries = names.map((name, i) =>
          text[i]
            ? `  ${JSON.stringify(name)}: asset${i},`
            : `  get ${JSON.stringify(name)}() { return Buffer.from(${JSON.stringify(Buffer.from(/** @type {Uint8Array} */ (assets.get(name))).toString('base64'))}, 'base64'); },`,
        );
        return { loader: 'js', contents: [...imports, 'export const bundledAssets = {', ...entries, '};', ''].join('\n') };
      });
      build.onResolve({ filter: new RegExp(`^${ASSET_NAMESPACE}:`) }, (args) => ({ path: args.path.slice(ASSET_NAMESPACE.length + 1), namespace: ASSET_NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: ASSET_NAMESPACE }, (args) => {
        const bytes = assets.get(args.path);
        if (!bytes) throw new Error(`no asset named ${args.path}`);
        if (!isUtf8(bytes)) throw new Error(`${args.path} is not text: it rides in bundled-assets' getter, not through a loader`);
        return { contents: bytes, loader: 'text' };
      });
    },
  };
}


/**
 * The script with every character past Latin-1 written as a \u escape. V8 keeps a script's source
 * for as long as the process runs (a function is compiled from it when first called), and stores it
 * at one byte per character only when every character fits in one: a single typographic quote,
 * dash or arrow in a page template or a comment doubles the memory the whole source takes. esbuild
 * escapes such characters in strings, but not in tagged templates (the escape changes their .raw;
 * the html tag reads the cooked strings, where \u2019 is ’ again) nor in the comments it keeps.
 * A backslash right before one would turn the escape into other text: the build stops instead.
 * @param {string} text
 */
export function oneBytePerCharacter(text) {
  if (/\\[\u0100-\uffff]/.test(text)) throw new Error('a backslash precedes a character past Latin-1 in the bundle: write that escape in the source');
  return text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Builds the bundle into outdir: the script, its source map and the list of its inputs.
 * @param {{ outdir?: string, quiet?: boolean }} [options]
 */
export async function buildBundle({ outdir = DEFAULT_OUTDIR, quiet = false } = {}) {
  const esbuild = await loadEsbuild();
  /** @type {AssetManifest} */
  const manifest = JSON.parse(await readFile(path.join(ROOT, MANIFEST), 'utf8'));
  const assets = await loadAssets(manifest, ROOT);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli.ts'],
    outfile: path.join(outdir, SCRIPT),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external: ['better-sqlite3'],
    // The CommonJS packages in the bundle (Koa's, node-forge...) require Node's modules; an ES
    // module has no `require` of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
    metafile: true,
    write: false,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [assetsPlugin(assets.assets)],
  });
  const inputs = [...Object.keys(result.metafile.inputs), ...assets.inputs, ...ALWAYS_INPUTS]
    // Dependencies change only through npm, which changes package-lock.json and reruns `prepare`;
    // the assets' own namespace names what assets.inputs lists as files.
    .filter((file) => !file.split('/').includes('node_modules') && !file.startsWith('<') && !file.startsWith(`${ASSET_NAMESPACE}:`));
  if (result.outputFiles.length !== 2) throw new Error('esbuild wrote other files than the script and its map');
  const outputs = result.outputFiles.map((f) => ({ path: f.path, contents: f.path.endsWith(SCRIPT) ? Buffer.from(oneBytePerCharacter(f.text)) : f.contents }));
  const script = outputs.find((f) => f.path.endsWith(SCRIPT));
  if (!script) throw new Error(`esbuild wrote no ${SCRIPT}`);
  // The record names the script it describes too: should two builds of different sources ever
  // interleave their renames, the script and the record would disagree, and the next start rebuilds.
  const files = Object.fromEntries(await Promise.all([...new Set(inputs)].sort().map(async (file) => [file, await hashFile(file)])));
  const record = JSON.stringify({ script: sha256(script.contents), files }, null, 2);
  outputs.push({ path: path.join(outdir, INPUTS), contents: Buffer.from(record) });
  await mkdir(outdir, { recursive: true });
  // Each file is written aside and renamed into place, the list of inputs last: a process starting
  // the script meanwhile runs a whole old or a whole new one, never half of either.
  for (const { path: file, contents } of outputs) {
    const aside = `${file}.${process.pid}.tmp`;
    await writeFile(aside, contents);
    await rename(aside, file);
  }
  if (!quiet) console.log(`built ${path.relative(process.cwd(), path.join(outdir, SCRIPT)) || SCRIPT}`);
  return path.join(outdir, SCRIPT);
}

/** @param {Uint8Array} bytes */
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** @param {string} file path from ROOT (or absolute); null when it does not exist */
async function hashFile(file) {
  try {
    return sha256(await readFile(path.resolve(ROOT, file)));
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
  /** @type {{ script?: string, files: Record<string, string | null> }} */
  const record = JSON.parse(readFileSync(path.join(outdir, INPUTS), 'utf8'));
  if ((await hashFile(path.join(outdir, SCRIPT))) !== record.script) return `${SCRIPT} is not the script ${INPUTS} describes`;
  const entries = Object.entries(record.files);
  const hashes = await Promise.all(entries.map(([file]) => hashFile(file)));
  const changed = entries.findIndex(([, hash], i) => hashes[i] !== hash);
  return changed === -1 ? null : `${entries[changed]?.[0]} changed since the last build`;
}

/**
 * Runs `work` while this process alone holds outdir's build lock: two processes finding the bundle
 * stale at once (two test files, npm start beside npx) build it once; the second waits for the
 * first, then finds it fresh. A lock whose process has ended (killed mid-build) is taken over.
 * @param {string} outdir
 * @param {() => Promise<void>} work
 */
async function withBuildLock(outdir, work) {
  await mkdir(outdir, { recursive: true });
  const lock = path.join(outdir, LOCK);
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    // Another process builds: wait until its lock is gone, or its process is.
    for (;;) {
      const holder = await readFile(lock, 'utf8').catch(() => null);
      if (holder === null) break;
      if (holder !== '' && !isAlive(Number(holder))) {
        await unlink(lock).catch(() => {});
        break;
      }
      await sleep(50);
    }
  }
  try {
    await work();
  } finally {
    await unlink(lock).catch(() => {});
  }
}

/** @param {number} pid */
function isAlive(pid) {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * The bundle's path, rebuilt first if the sources changed since it was built. Without sources
 * beside it (a copy of dist/ alone) it runs as it is.
 * @param {string} [outdir]
 */
export async function freshBundle(outdir = DEFAULT_OUTDIR) {
  const script = path.join(outdir, SCRIPT);
  if (!existsSync(path.join(ROOT, 'src')) && existsSync(script)) return script;
  if ((await staleReason(outdir)) === null) return script;
  await withBuildLock(outdir, async () => {
    // Checked again under the lock: a process that waited finds what the builder built.
    const reason = await staleReason(outdir);
    if (!reason) return;
    process.stderr.write(`wallet-loyalty: ${reason}; building ${path.relative(process.cwd(), script) || SCRIPT}\n`);
    await buildBundle({ outdir, quiet: true });
  });
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
