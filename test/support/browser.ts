// Headless Chromium for the browser tests, on any machine that can run `npm install`:
// Debian's /usr/bin/chromium when it is installed, otherwise the Chromium that ships inside the
// npm package @sparticuz/chromium (a headless shell, brotli-compressed, with the NSS libraries it
// links against and one font family). The package's own executablePath() is not used: it unpacks
// into the shared /tmp, reuses whatever /tmp/chromium it finds (another version's, or one another
// test process is still writing), and points the libraries and fonts at its binary only on AWS
// Lambda. Here the package is unpacked once per installed version into node_modules/.cache,
// atomically (a complete folder is renamed into place), and the browser gets its libraries and
// fonts through its own environment.
//
// WALLET_TEST_CHROMIUM picks another browser: `packaged` forces the npm package (.ci/run sets it,
// so CI runs what a fresh machine runs even where Debian's chromium happens to be installed), a
// path uses that executable.
//
// Measured on the 2-core machine: the first launch after `npm install` unpacks ~200 MB in ~2.5 s;
// every later launch takes ~0.1 s. The fake camera (getUserMedia on a localhost page, frames from
// a .y4m file) works in the packaged shell too: pass `fakeCamera`.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless run on a machine with no GPU and a closed network (it refuses Google's hosts). */
const HEADLESS_ARGS = [
  '--no-sandbox', // the tests run as root
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LaunchOptions {
  /** More Chromium flags. */
  args?: string[];
  /** A .y4m file the page's camera films: getUserMedia answers at once with its frames. */
  fakeCamera?: string;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const target = chromiumToUse();
  const camera = options.fakeCamera
    ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${options.fakeCamera}`]
    : [];
  return chromium.launch({
    executablePath: target.executablePath,
    args: [...HEADLESS_ARGS, ...camera, ...(options.args ?? [])],
    env: { ...process.env, ...target.env },
  });
}

interface ChromiumTarget {
  executablePath: string;
  env: Record<string, string>;
}

function chromiumToUse(): ChromiumTarget {
  const chosen = process.env.WALLET_TEST_CHROMIUM;
  if (chosen === 'packaged') return packagedChromium();
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`WALLET_TEST_CHROMIUM=${chosen}: no such file (use a path, or "packaged")`);
    return { executablePath: chosen, env: {} };
  }
  return existsSync(DEBIAN_CHROMIUM) ? { executablePath: DEBIAN_CHROMIUM, env: {} } : packagedChromium();
}

/** The npm package's Chromium, unpacked on first use; its libraries and fonts come with it. */
function packagedChromium(): ChromiumTarget {
  const pkg = packageDir();
  const { version } = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
  const dir = path.resolve(pkg, '..', '..', '.cache', `sparticuz-chromium-${version}`);
  if (!existsSync(path.join(dir, 'chromium'))) unpack(path.join(pkg, 'bin'), dir);
  return {
    executablePath: path.join(dir, 'chromium'),
    env: {
      // libnss3 and friends built for this binary: the machine need not have them.
      LD_LIBRARY_PATH: [path.join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      // The machine's fonts when it has any, and the package's Open Sans always: without a single
      // font file every glyph is blank.
      FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
    },
  };
}

function packageDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium')));
  while (!existsSync(path.join(dir, 'bin', 'chromium.br'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@sparticuz/chromium is installed without its bin/chromium.br');
    dir = parent;
  }
  return dir;
}

/**
 * Unpacks into a private folder, then renames it into place: a test process running at the same
 * time either sees no folder (and unpacks its own, losing the rename race harmlessly) or a whole one.
 */
function unpack(bin: string, dir: string): void {
  const staging = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  mkdirSync(staging, { recursive: true });
  try {
    writeFileSync(path.join(staging, 'chromium'), brotliDecompressSync(readFileSync(path.join(bin, 'chromium.br'))), { mode: 0o755 });
    extractTar(brotliDecompressSync(readFileSync(path.join(bin, 'al2023.tar.br'))), staging); // lib/libnss3.so …
    extractTar(brotliDecompressSync(readFileSync(path.join(bin, 'fonts.tar.br'))), path.join(staging, 'package-fonts')); // fonts/Open_Sans/…
    writeFileSync(path.join(staging, 'fonts.conf'), fontconfig(dir));
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process finished first: its folder is as good as ours.
    if (existsSync(path.join(dir, 'chromium'))) return;
    throw error;
  }
}

function fontconfig(dir: string): string {
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${xml(path.join(dir, 'package-fonts', 'fonts'))}</dir>
  <cachedir>${xml(path.join(dir, 'fontconfig-cache'))}</cachedir>
</fontconfig>
`;
}

/**
 * The two small tarballs hold only regular files and folders (ustar); anything else is refused
 * rather than guessed at.
 */
function extractTar(tar: Buffer, into: string): void {
  const field = (block: Buffer, start: number, length: number) => block.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break; // end of archive
    const name = path.posix.join(field(header, 345, 155), field(header, 0, 100));
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const target = path.resolve(into, name);
    if (!target.startsWith(path.resolve(into) + path.sep)) throw new Error(`tar entry outside the folder: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      const mode = parseInt(field(header, 100, 8).trim() || '644', 8) & 0o777;
      writeFileSync(target, tar.subarray(offset + 512, offset + 512 + size), { mode });
    } else throw new Error(`tar entry ${name} has type ${type}, not a file or folder`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
}
