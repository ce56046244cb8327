import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { walletRepo } from './repo';

/** Forgets Google callback nonces whose messages have expired: the signature check refuses those anyway. */
export function sweepGoogleNonces(deps: { db: Db; clock: Clock }): number {
  return inTransaction(deps.db, () => walletRepo(deps.db).sweepNonces(deps.clock.now()));
}
