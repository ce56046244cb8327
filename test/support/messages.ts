// Helpers for the message tests: passes given to customers the way the wallets leave them (an
// Apple device registration, a Google object its holder saved, a web pass opened), and the
// delivery rows a message left.
import { walletRepo } from '../../src/wallet/repo';
import { noteWebPassOpened } from '../../src/wallet/web-pass-opens';
import { walletResourceId } from '../../src/wallet/google/objects';
import type { TestApp } from './app';
import { ISSUER_ID } from './wallet-app';

export const PASS_TYPE_ID = 'pass.com.example.loyalty';

export interface Passes {
  /** Push tokens of Apple devices holding the pass. */
  apple?: string[];
  google?: boolean;
  web?: boolean;
}

/** Gives the customer the passes a wallet would have registered. */
export function givePasses(app: Pick<TestApp, 'db' | 'clock'>, customerId: string, passes: Passes, passTypeId = PASS_TYPE_ID): void {
  const repo = walletRepo(app.db);
  const now = app.clock.now();
  app.db.transaction(() => {
    (passes.apple ?? []).forEach((pushToken, i) => repo.insertRegistration({ deviceLibraryId: `device-${i}-${pushToken}`, passTypeId, customerId, pushToken }, now));
    if (passes.google) {
      repo.recordGoogleLink({ customerId, objectId: walletResourceId(ISSUER_ID, customerId), classId: `${ISSUER_ID}.class` }, now);
      repo.applyGoogleEvent(customerId, now, now + 3_600_000);
    }
  })();
  if (passes.web) noteWebPassOpened(app, customerId);
}

export interface DeliveryRow {
  customer_id: string;
  channel: 'apple' | 'google' | 'web';
  status: 'pending' | 'delivered' | 'shown' | 'failed';
  may_notify: number;
  attempts: number;
  error: string | null;
  next_attempt_at: number | null;
}

export function deliveryRows(app: Pick<TestApp, 'db'>, messageId: string): DeliveryRow[] {
  return app.db.prepare('SELECT customer_id, channel, status, may_notify, attempts, error, next_attempt_at FROM message_deliveries WHERE message_id = ? ORDER BY id').all(messageId) as DeliveryRow[];
}

export const countRows = (app: Pick<TestApp, 'db'>, table: 'messages' | 'message_deliveries' | 'wallet_pass_messages') =>
  (app.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
