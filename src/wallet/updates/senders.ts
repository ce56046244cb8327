// How the server talks to the wallets, outside any transaction: an APNs push to each Apple device
// holding a pass, a PATCH of a Google object, a message added to one. One APNs connection (HTTP/2
// streams) and one Google token serve every queue that sends: the pass updates and the shop's
// messages. Each call resolves with what happened; the queues decide what to retry.
import { cardsRepo } from '../../cards/repo';
import type { Config } from '../../config';
import { customersRepo } from '../../customers/repo';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/log';
import { createApnsClient, isDeadRegistration, type ApnsClient, type ApnsClientOptions } from '../apple/apns';
import { customerPassContent } from '../customer-content';
import { googleObjectPatch } from '../google/customer-objects';
import { createGoogleTokenSource, type GoogleTokenSource } from '../google/oauth';
import { addLoyaltyObjectMessage, patchLoyaltyObject, type WalletMessage } from '../google/objects';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import type { WalletServices } from '../services';

export interface WalletSenderDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  wallet: WalletServices;
}

export interface WalletSenderOptions {
  /** Extra CAs for the APNs connection (tests talk to a local fake); production uses the system store. */
  apnsCa?: ApnsClientOptions['ca'];
  apnsTimeoutMs?: number;
  googleTimeoutMs?: number;
}

export interface ApplePushResult {
  /** Devices that took the push. */
  pushed: number;
  /** Failures worth retrying. */
  errors: string[];
  /** Apple Wallet is not set up on this server: nothing can be pushed. */
  off?: true;
}

/** Google's answer to an addMessage; 'none' when no saved Google pass is there to take it, 'off' without Google Wallet. */
export type GoogleMessageResult = { status: number } | 'none' | 'off';

export interface WalletSenders {
  /** Pushes to every Apple device holding the pass (a dead device's registration is removed). */
  pushApple(customerId: string): Promise<ApplePushResult>;
  /** PATCHes the Google object with what the pass shows now, when a save link for it was handed out; returns the failures worth retrying. */
  patchGoogle(customerId: string): Promise<string[]>;
  /** Adds the message to the customer's saved Google pass. Network failures reject. */
  addGoogleMessage(customerId: string, message: WalletMessage): Promise<GoogleMessageResult>;
  /** The Objects API base without /walletobjects/v1, and the token, for the card classes. */
  readonly googleApiBase: string;
  readonly tokens: GoogleTokenSource | undefined;
  /** Closes the APNs session. */
  close(): Promise<void>;
}

export function createWalletSenders(deps: WalletSenderDeps, options: WalletSenderOptions = {}): WalletSenders {
  const { db, clock, log, config, wallet } = deps;
  // The Objects API base may be given with or without the documented /walletobjects/v1 suffix.
  const googleApiBase = config.google.objectsApiUrl.replace(/\/walletobjects\/v1\/?$/, '');
  const tokens: GoogleTokenSource | undefined = wallet.google
    ? createGoogleTokenSource({ serviceAccount: wallet.google.serviceAccount, now: clock.now, timeoutMs: options.googleTimeoutMs })
    : undefined;
  const timeout = options.googleTimeoutMs !== undefined ? { timeoutMs: options.googleTimeoutMs } : {};
  let apns: ApnsClient | undefined;

  function apnsClient(): ApnsClient | undefined {
    const apple = wallet.apple;
    if (!apple) return undefined;
    apns ??= createApnsClient({
      url: config.apple.apnsUrl,
      cert: apple.signerCert,
      key: apple.signerKey,
      ...(apple.signerKeyPassphrase !== undefined ? { passphrase: apple.signerKeyPassphrase } : {}),
      topic: apple.passTypeId,
      ...(config.apple.apnsPushType ? { pushType: config.apple.apnsPushType } : {}),
      ...(options.apnsTimeoutMs !== undefined ? { timeoutMs: options.apnsTimeoutMs } : {}),
      ...(options.apnsCa !== undefined ? { ca: options.apnsCa } : {}),
    });
    return apns;
  }

  function dropDeadToken(pushToken: string, passTypeId: string): void {
    inTransaction(db, () => {
      for (const customerId of walletRepo(db).deleteRegistrationsByToken(pushToken, passTypeId)) refreshInstallStatus(db, clock, customerId);
    });
    log.info('wallet: APNs reports a dead device; registration removed', { passTypeId });
  }

  return {
    googleApiBase,
    tokens,
    async pushApple(customerId) {
      const client = apnsClient();
      if (!client || !wallet.apple) return { pushed: 0, errors: [], off: true };
      const passTypeId = wallet.apple.passTypeId;
      const pushTokens = [...new Set(walletRepo(db).registrationsOf(customerId, passTypeId).map((r) => r.pushToken))];
      const results = await Promise.all(
        pushTokens.map((token) => client.push(token).then((result) => ({ token, result }), (error: unknown) => ({ token, error: error as Error }))),
      );
      const errors: string[] = [];
      let pushed = 0;
      for (const outcome of results) {
        if ('error' in outcome) errors.push(`APNs: ${outcome.error.message}`);
        else if (isDeadRegistration(outcome.result)) dropDeadToken(outcome.token, passTypeId);
        else if (outcome.result.status !== 200) errors.push(`APNs answered ${outcome.result.status}${outcome.result.reason ? ` ${outcome.result.reason}` : ''}`);
        else pushed += 1;
      }
      return { pushed, errors };
    },

    async patchGoogle(customerId) {
      if (!wallet.google || !tokens) return [];
      const object = walletRepo(db).googleObjectOf(customerId);
      const customer = customersRepo(db).findByPassUserId(customerId);
      const card = customer && cardsRepo(db).findById(customer.cardId);
      if (!object || !customer || !card) return [];
      try {
        const accessToken = await tokens.getToken();
        const content = customerPassContent(db, card, customer);
        const result = await patchLoyaltyObject({ objectId: object.objectId, patch: googleObjectPatch(content), accessToken, baseUrl: googleApiBase, ...timeout });
        // 404: the holder has not saved the object yet (it exists only inside the save link).
        if (result.status === 200 || result.status === 404) return [];
        if (result.status === 401) tokens.invalidate();
        return [`Google answered ${result.status}`];
      } catch (err) {
        return [`Google: ${(err as Error).message}`];
      }
    },

    async addGoogleMessage(customerId, message) {
      if (!wallet.google || !tokens) return 'off';
      const object = walletRepo(db).googleObjectOf(customerId);
      if (!object || object.savedAt === null) return 'none';
      const accessToken = await tokens.getToken();
      const result = await addLoyaltyObjectMessage({ objectId: object.objectId, message, accessToken, baseUrl: googleApiBase, ...timeout });
      if (result.status === 401) tokens.invalidate();
      return { status: result.status };
    },

    async close() {
      await apns?.close();
    },
  };
}
