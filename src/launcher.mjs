// @ts-check
// The first lines of dist/wallet-loyalty.mjs: build.mjs puts this file there, then the call of
// runProgram, then programText(), whose only content is a comment holding the program (the
// CommonJS code esbuild made of src/), then the assets trailer. It is not part of the program.
//
// Why not simply the program as an ES module: Node 20 has no compile cache for those, and V8 then
// parses the whole 3 MB program at every start (~90 ms of a ~400 ms cold start on the development
// machine, issue 13). Compiled here through node:vm with the code cache V8 wrote at an earlier run,
// it is read back instead of parsed, and the functions that run at start are compiled already:
// ~80-100 ms less of each start. A comment costs V8 next to nothing to read past, and
// programText.toString() hands back the text V8 already holds: the script stays one file and is
// read once.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * How a comment holds the program: each `*\/` that would end the comment early is written with a
 * NUL between its characters (esbuild writes a NUL in the code only as an escape; build.mjs checks).
 */
export const COMMENT_END_ESCAPED = '*\u0000/';

/**
 * @typedef {{ text: () => void, sha256: string, lineOffset: number, columnOffset: number }} Program
 * `text`: the function whose comment holds the program; `sha256`: of the program as compiled (the
 * cache's key); `lineOffset`, `columnOffset`: where it starts in the script, so stack traces name
 * the script's own lines.
 * @typedef {'used' | 'absent' | 'outdated' | 'damaged' | 'rejected'} CacheStatus
 * used: V8 took it; absent: none yet; outdated: made by another build, Node or V8 flags; damaged:
 * its bytes do not match their checksum; rejected: V8 refused it.
 */

/** Compiles and runs the program (build.mjs appends the call). @param {Program} program */
export function runProgram(program) {
  const file = fileURLToPath(import.meta.url);
  const cacheFile = `${file}.code-cache`;
  const whole = program.text.toString();
  const source = whole.slice(whole.indexOf('/*') + 2, whole.lastIndexOf('*/')).replaceAll(COMMENT_END_ESCAPED, '*/');
  // V8 itself checks only the source's length, its version and flags: the key names the content.
  const key = JSON.stringify({ program: program.sha256, node: process.version, arch: process.arch, flags: process.execArgv });
  const cache = readCache(cacheFile, key);
  const script = new Script(source, { filename: file, lineOffset: program.lineOffset, columnOffset: program.columnOffset, cachedData: cache.data });
  /** @type {CacheStatus} */
  const status = cache.data && script.cachedDataRejected ? 'rejected' : cache.status;
  globalThis.__WALLET_CODE_CACHE__ = {
    status,
    file: cacheFile,
    // Called by the server once it has run a while (src/lib/code-cache.ts): the cache then holds
    // the functions a start and the first requests compile. Written aside and renamed into place,
    // so a start meanwhile reads the old file or the new one, never half of one.
    save() {
      const data = script.createCachedData();
      const header = JSON.stringify({ key, sha256: sha256(data) });
      const aside = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(aside, Buffer.concat([Buffer.from(`${header}\n`), data]));
        renameSync(aside, cacheFile);
      } catch (error) {
        rmSync(aside, { force: true });
        throw error;
      }
      return data.length;
    },
  };
  const module = { exports: {}, id: file, filename: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
}

/**
 * The code cache beside the script, when it was made for this very program, Node and flags.
 * @param {string} cacheFile
 * @param {string} key
 * @returns {{ status: CacheStatus, data?: Buffer }}
 */
function readCache(cacheFile, key) {
  let bytes;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return { status: 'absent' };
  }
  const newline = bytes.indexOf(10);
  /** @type {{ key?: string, sha256?: string }} */
  let header = {};
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8'));
  } catch {
    return { status: 'damaged' };
  }
  if (header.key !== key) return { status: 'outdated' };
  const data = bytes.subarray(newline + 1);
  // V8 does not check a cache's bytes in a release build; a flipped bit must not become code.
  if (sha256(data) !== header.sha256) return { status: 'damaged' };
  return { status: 'used', data };
}

/** @param {Uint8Array} bytes */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}
