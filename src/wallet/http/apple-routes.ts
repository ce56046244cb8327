// Apple Wallet's pass web service, exactly as devices call it under webServiceURL
// (`${PUBLIC_URL}/wallet`): register, unregister, updated serial numbers, latest pass, log.
// Devices read status codes only; bodies are empty except where Apple defines one.
import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import { cardsRepo } from '../../cards/repo';
import { customersRepo } from '../../customers/repo';
import { readJsonBody } from '../../http/body';
import { limitAnonymous } from '../../http/gate';
import type { RateLimiter } from '../../http/rate-limit';
import { sameSecret } from '../../lib/secrets';
import type { AppleCredentials } from '../apple/credentials';
import { buildCustomerApplePass, passModifiedAt } from '../apple/customer-pass';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import type { WalletDeps } from './deps';
import { lastModifiedSeconds, sendPkpass } from './pkpass';

const REGISTRATION = '/wallet/v1/devices/:deviceLibraryId/registrations/:passTypeId/:serial';
const DEVICE_PASSES = '/wallet/v1/devices/:deviceLibraryId/registrations/:passTypeId';
const PASS = '/wallet/v1/passes/:passTypeId/:serial';
const LOG = '/wallet/v1/log';

const RegisterBody = v.object({ pushToken: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });
const LogBody = v.object({ logs: v.array(v.unknown()) });

export function bindAppleWebService(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
  const { db, clock, log } = deps;

  /** Apple configured and the path's pass type is ours; otherwise answers and returns undefined. */
  function appleFor(ctx: Context): AppleCredentials | undefined {
    const apple = deps.wallet.apple;
    if (!apple) {
      ctx.status = 404; // this server issues no Apple passes
      return undefined;
    }
    if (ctx.params.passTypeId !== apple.passTypeId) {
      ctx.status = 401; // no pass of ours can authenticate for another pass type
      return undefined;
    }
    return apple;
  }

  /** `Authorization: ApplePass <token>` against the pass's token, compared in constant time. */
  function authorized(ctx: Context, serial: string): boolean {
    const match = /^ApplePass\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
    const expected = walletRepo(db).authToken(serial);
    const ok = !!match && !!expected && sameSecret(match[1]!, expected);
    if (!ok) ctx.status = 401;
    return ok;
  }

  const validId = (id: string | undefined) => !!id && id.length <= 255;

  router.post(REGISTRATION, async (ctx) => {
    const { deviceLibraryId = '', serial = '' } = ctx.params;
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, serial)) return;
    const parsed = v.safeParse(RegisterBody, await readJsonBody(ctx));
    if (!parsed.success || !validId(deviceLibraryId)) {
      ctx.status = 400;
      return;
    }
    const key = { deviceLibraryId, passTypeId: apple.passTypeId, customerId: serial };
    const created = db.transaction(() => {
      const repo = walletRepo(db);
      const now = clock.now();
      repo.updateDeviceToken(deviceLibraryId, parsed.output.pushToken, now);
      if (repo.findRegistration(key)) return false;
      repo.insertRegistration({ ...key, pushToken: parsed.output.pushToken }, now);
      refreshInstallStatus(db, clock, serial);
      return true;
    })();
    ctx.status = created ? 201 : 200;
  });

  router.delete(REGISTRATION, (ctx) => {
    const { deviceLibraryId = '', serial = '' } = ctx.params;
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, serial)) return;
    db.transaction(() => {
      if (walletRepo(db).deleteRegistration({ deviceLibraryId, passTypeId: apple.passTypeId, customerId: serial })) {
        refreshInstallStatus(db, clock, serial);
      }
    })();
    ctx.status = 200;
  });

  // No authentication by Apple's design: the device library id is the device's own secret.
  router.get(DEVICE_PASSES, (ctx) => {
    const { deviceLibraryId = '', passTypeId = '' } = ctx.params;
    if (!deps.wallet.apple) {
      ctx.status = 404;
      return;
    }
    // Another pass type simply has no passes here (this endpoint has no token to refuse).
    // The tag is the database's update sequence, read in one snapshot with the passes: every later
    // change takes a higher number, so nothing is skipped however many changes share a millisecond.
    const repo = walletRepo(db);
    const { sequence, passes } = db.transaction(() => ({ sequence: repo.updateSequence(), passes: repo.devicePasses(deviceLibraryId, passTypeId) }))();
    const sinceText = typeof ctx.query.passesUpdatedSince === 'string' ? ctx.query.passesUpdatedSince : '';
    const since = /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : undefined;
    // A tag above anything this database handed out (it was restored from a backup) tells nothing
    // about what the device holds: list every pass rather than hide changes from it.
    const updated = since === undefined || since > sequence ? passes : passes.filter((p) => p.sequence > since);
    if (updated.length === 0) {
      ctx.status = 204;
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    // lastUpdated must be a string: devices given a number never ask for the passes.
    ctx.body = JSON.stringify({ serialNumbers: updated.map((p) => p.customerId), lastUpdated: String(sequence) });
  });

  router.get(PASS, async (ctx) => {
    const { serial = '' } = ctx.params;
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, serial)) return;
    const customer = customersRepo(db).findByPassUserId(serial);
    const card = customer && cardsRepo(db).findById(customer.cardId);
    if (!customer || !card) {
      ctx.status = 401; // the customer is gone (test customers expire): the pass no longer updates
      return;
    }
    // HTTP dates carry whole seconds: compare the second of the last change with the device's
    // date. The dates we send never name a second a later change could still share
    // (lastModifiedSeconds), so a device's date equal to or past that second means it is current.
    const modifiedAt = passModifiedAt(card, customer);
    const lastModified = lastModifiedSeconds(modifiedAt, clock.now());
    const since = Date.parse(ctx.get('If-Modified-Since'));
    if (!Number.isNaN(since) && Math.floor(modifiedAt / 1000) * 1000 <= since) {
      ctx.status = 304;
      ctx.set('Last-Modified', new Date(lastModified * 1000).toUTCString());
      return;
    }
    sendPkpass(ctx, await buildCustomerApplePass(deps, apple, card, customer), card, lastModified);
  });

  // Unauthenticated and written to the operator's log, so flooding it must cost the sender: it
  // shares the per-address budget of the public pages. The device endpoints above do not: phones
  // behind one carrier NAT or reverse proxy share an address and all ask at once after a push,
  // they cost little until a token matches, and a token cannot be guessed.
  router.post(LOG, async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const parsed = v.safeParse(LogBody, await readJsonBody(ctx).catch(() => undefined));
    if (parsed.success) {
      // Apple sends strings; anything else is shown as JSON (String() throws on some objects).
      const logs = parsed.output.logs.slice(0, 20).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)).slice(0, 500));
      log.warn('wallet: Apple device log', { logs });
    }
    ctx.status = 200;
  });
}
