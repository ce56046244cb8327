#!/usr/bin/env node
// `npx wallet-loyalty …` (the package.json bin) runs the bundled script, as an operator does.
// In a checkout the bundle is rebuilt first when a source changed since the last build, so an edit
// to src/ never runs stale. tsx is for tests only.
import { pathToFileURL } from 'node:url';
import { freshBundle } from '../build.mjs';

const script = await freshBundle();
await import(pathToFileURL(script).href);
