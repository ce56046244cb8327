import { statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

// The first start (`npm start` in the project folder) keeps its data in ./data; the service's
// environment file sets DATA_DIR=/var/lib/wallet-loyalty. Started there, the server would make a
// new, empty database beside the shop's real one and print a new demo login, and nothing would say
// where the customers went.

const hasDatabase = (dir: string) => {
  try {
    return statSync(path.join(dir, 'wallet-loyalty.db')).size > 0;
  } catch {
    return false;
  }
};

/**
 * A warning when ./data (from the folder the server starts in) holds a database while DATA_DIR
 * names another folder that holds none; null otherwise. Read before the database is opened (which
 * would create one in DATA_DIR).
 */
export function movedDataWarning(config: Pick<Config, 'dataDir'>, cwd: string): string | null {
  const firstStart = path.resolve(cwd, 'data');
  if (path.resolve(config.dataDir) === firstStart || hasDatabase(config.dataDir) || !hasDatabase(firstStart)) return null;
  return (
    `DATA_DIR is ${config.dataDir}, which holds no database yet, while ${firstStart} holds one (a first start's?). ` +
    `A new, empty database is made in ${config.dataDir}. To move the data instead: stop the server, run ` +
    `wallet-loyalty backup ${path.join(config.dataDir, 'wallet-loyalty.db')} --data ${firstStart}, start it again (docs/going-live.md, "Moving the first start's data")`
  );
}
