#!/usr/bin/env node
// `npx wallet-loyalty …` from the project root: runs the TypeScript sources through tsx,
// so the command works straight after `npm install` without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
