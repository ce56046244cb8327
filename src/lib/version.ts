// The package's version, from package.json at build time (esbuild inlines the one field): what
// `wallet-loyalty --version` prints and /healthz reports.
import { version } from '../../package.json';

export const VERSION: string = version;
