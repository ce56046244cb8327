import type { Db } from '../db/open';
import type { Clock } from '../lib/clock';
import { walletRepo } from './repo';

/** Forgets Google callback nonces whose messages have expired: the signature check refuses those anyway. */
export function sweepGoogleNonces(deps: { db: Db; clock: Clock }): number {
  return deps.db.transaction(() => walletRepo(deps.db).sweepNonces(deps.clock.now()))();
}
