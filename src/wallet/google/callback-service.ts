// What a Google Wallet save/delete callback changes: verified, acted on once per nonce, in the
// order Google's events happened. The protocol (path, status codes) is wallet/http/google-routes.ts.
import { inTransaction } from '../../db/transaction';
import type { AppDeps } from '../../deps';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import type { GoogleWallet } from '../services';
import { queuePassResend } from '../updates/queue';
import { GoogleCallbackError, verifyGoogleCallback, type GoogleCallbackMessage } from './callback';

export type CallbackDeps = Pick<AppDeps, 'db' | 'clock' | 'log' | 'afterCommit'>;

/** What became of a verified callback. */
export type CallbackOutcome = 'applied' | 'replayed' | 'unknown_object' | 'ignored' | 'superseded';

export type CallbackResult =
  /** Our side cannot check it now (root keys unreachable): Google should try again. */
  | { kind: 'unverifiable' }
  /** The message is not Google's, not ours, or expired; `malformed` when it is not even well-formed. */
  | { kind: 'refused'; malformed: boolean }
  | { kind: 'verified'; outcome: CallbackOutcome };

export async function receiveGoogleCallback(deps: CallbackDeps, google: GoogleWallet, senderId: string, body: string): Promise<CallbackResult> {
  let message: GoogleCallbackMessage;
  try {
    message = await verifyGoogleCallback(body, { issuerId: google.issuerId, senderId, rootKeys: () => google.rootKeys.get(), now: deps.clock.now });
  } catch (err) {
    if (!(err instanceof GoogleCallbackError) || err.code === 'no_root_keys') {
      deps.log.error('wallet: cannot verify a Google callback', { err });
      return { kind: 'unverifiable' };
    }
    deps.log.warn('wallet: Google callback refused', { reason: err.code });
    return { kind: 'refused', malformed: err.code === 'malformed' };
  }
  const outcome = applyCallback(deps, message);
  deps.log.info('wallet: Google callback', { eventType: message.eventType, outcome });
  return { kind: 'verified', outcome };
}

function applyCallback(deps: CallbackDeps, message: GoogleCallbackMessage): CallbackOutcome {
  const { db, clock } = deps;
  return inTransaction(db, (): CallbackOutcome => {
    const repo = walletRepo(db);
    const now = clock.now();
    // Google retries and may deliver twice: act on each nonce once.
    if (!repo.rememberNonce(message.nonce, message.expTimeMillis, now)) return 'replayed';
    const object = repo.googleObjectById(message.objectId);
    if (!object) return 'unknown_object';
    if (message.eventType !== 'save' && message.eventType !== 'del') return 'ignored';
    // Callbacks come in any order: one older than the event applied last changes nothing.
    if (!repo.applyGoogleEvent(object.customerId, message.eventType === 'save' ? now : null, message.expTimeMillis)) return 'superseded';
    // Google built the object from the save link, which shows the balance of when the link was
    // issued; bring it up to date (a PATCH before the save found no object to update).
    if (message.eventType === 'save') queuePassResend(deps, object.customerId);
    refreshInstallStatus(db, clock, object.customerId);
    return 'applied';
  });
}
