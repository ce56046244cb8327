#!/usr/bin/env node
// The project's import graph by top-level folder of src/, and the two figures the structure is
// held to: circles (folders that import each other, directly or around a loop) and arrows up (an
// import from a lower layer into a higher one). Type-only imports are left out: they vanish from
// the bundle and cannot make a loop at run time; re-exports (`export … from`) count as imports.
// `--list` prints every edge that counts; `--check` exits 1 unless there is no circle and at most
// two arrows up (test/import-graph.test.ts); `--src <dir>` reads another tree (that test's fixtures).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const srcArg = process.argv.indexOf('--src');
const src = srcArg === -1 ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src') : path.resolve(process.argv[srcArg + 1]);

// Lower numbers sit lower: a folder may import its own layer and those below it, never above.
// Shared pieces (lib, db, the neutral deps/config modules, queue, i18n) at the bottom; page and
// route plumbing above them; features in the middle (among themselves held to no circle). Above
// the features, what reaches across them: the pages (console, counter, customer-pages) call any
// feature's services, and privacy knows every feature's copy of a person; no feature may import
// them (a feature that needed a page's code would be a feature's code kept in the wrong place, as
// the card face was in signup/). Composition (http, jobs, main, cli) on top.
const LAYERS = {
  lib: 0, 'config.ts': 0, 'deps.ts': 0,
  db: 1, i18n: 1,
  queue: 2, events: 2, routing: 2, web: 2,
  privacy: 4, console: 4, counter: 4, 'customer-pages': 4,
  http: 5, jobs: 5, 'main.ts': 6, 'cli.ts': 6,
};
const FEATURE_LAYER = 3;
const layerOf = (node) => LAYERS[node] ?? FEATURE_LAYER;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'client' ? [] : files(full); // browser code is bundled apart
    return /\.ts$/.test(name) ? [full] : [];
  });
}

const nodeOf = (file) => path.relative(src, file).split(path.sep)[0];

const edges = new Map(); // "a -> b" → example "file: import"
for (const file of files(src)) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms),
    ...text.matchAll(/^export\s+(?!type\s)(?:\*|\{[^}]*\})\s+from\s+'(\.[^']+)'/gms),
  ];
  for (const m of specifiers) {
    const target = path.resolve(path.dirname(file), m[1]);
    if (!target.startsWith(src)) continue;
    const from = nodeOf(file);
    const to = nodeOf(target.endsWith('.ts') || !statSync(path.dirname(target)).isDirectory() ? target : target);
    const toNode = to.includes('.') ? to : to; // a root file (main.ts) or a folder
    const toName = /^[a-z-]+$/.test(toNode) && !statSync(path.join(src, toNode), { throwIfNoEntry: false }) ? `${toNode}.ts` : toNode;
    if (from === toName) continue;
    const key = `${from} -> ${toName}`;
    if (!edges.has(key)) edges.set(key, `${path.relative(src, file)} imports ${m[1]}`);
  }
}

const graph = new Map();
for (const key of edges.keys()) {
  const [a, b] = key.split(' -> ');
  if (!graph.has(a)) graph.set(a, new Set());
  graph.get(a).add(b);
}

// Tarjan's strongly connected components: each component of two or more folders is one circle.
let index = 0;
const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], circles = [];
function visit(v) {
  idx.set(v, index); low.set(v, index); index++; stack.push(v); onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const component = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1) circles.push(component.sort());
  }
}
for (const v of graph.keys()) if (!idx.has(v)) visit(v);

const up = [...edges.keys()].filter((key) => {
  const [a, b] = key.split(' -> ');
  return layerOf(b) > layerOf(a);
});

const list = process.argv.includes('--list');
console.log(`folders: ${new Set([...edges.keys()].flatMap((k) => k.split(' -> '))).size}, arrows: ${edges.size}`);
console.log(`circles: ${circles.length}${circles.length ? '  ' + circles.map((c) => `[${c.join(' ')}]`).join(' ') : ''}`);
console.log(`arrows up: ${up.length}`);
if (list) for (const key of up) console.log(`  up  ${key}   (${edges.get(key)})`);
if (list && circles.length) {
  for (const c of circles) for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (c.includes(a) && c.includes(b)) console.log(`  circle edge  ${key}   (${edges.get(key)})`);
  }
}
if (process.argv.includes('--check') && (circles.length > 0 || up.length > 2)) process.exit(1);
