// Apple Wallet's pass web service, exactly as devices call it under webServiceURL
// (`${PUBLIC_URL}/wallet`): register, unregister, updated serial numbers, latest pass, log.
// Devices read status codes only; bodies are empty except where Apple defines one. The rules
// behind each call are in wallet/apple/web-service.ts.
import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import { readJsonBody } from '../../routing/json-body';
import { limitAnonymous } from '../../routing/rate-limited';
import type { RateLimiter } from '../../routing/rate-limit';
import type { AppleCredentials } from '../apple/credentials';
import {
  latestPass,
  passesUpdatedSince,
  passTokenMatches,
  recordDeviceLog,
  registerDevice,
  unregisterDevice,
  type DeviceRegistration,
} from '../apple/web-service';
import type { WalletDeps } from './deps';
import { lastModifiedSeconds, sendPkpass } from './pkpass';

const REGISTRATION = '/wallet/v1/devices/:deviceLibraryId/registrations/:passTypeId/:serial';
const DEVICE_PASSES = '/wallet/v1/devices/:deviceLibraryId/registrations/:passTypeId';
const PASS = '/wallet/v1/passes/:passTypeId/:serial';
const LOG = '/wallet/v1/log';

const RegisterBody = v.object({ pushToken: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });
const LogBody = v.object({ logs: v.array(v.unknown()) });

const httpDate = (seconds: number) => new Date(seconds * 1000).toUTCString();

export function bindAppleWebService(router: Router, deps: WalletDeps, limiter: RateLimiter): void {
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

  /** `Authorization: ApplePass <token>` for the pass; otherwise answers 401. */
  function authorized(ctx: Context, serial: string): boolean {
    const match = /^ApplePass\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
    const ok = !!match && passTokenMatches(deps.db, serial, match[1]!);
    if (!ok) ctx.status = 401;
    return ok;
  }

  const registrationOf = (ctx: Context, apple: AppleCredentials): DeviceRegistration => ({
    deviceLibraryId: ctx.params.deviceLibraryId ?? '',
    passTypeId: apple.passTypeId,
    serial: ctx.params.serial ?? '',
  });

  router.post(REGISTRATION, async (ctx) => {
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, ctx.params.serial ?? '')) return;
    const registration = registrationOf(ctx, apple);
    const parsed = v.safeParse(RegisterBody, await readJsonBody(ctx));
    if (!parsed.success || !registration.deviceLibraryId || registration.deviceLibraryId.length > 255) {
      ctx.status = 400;
      return;
    }
    ctx.status = registerDevice(deps, registration, parsed.output.pushToken) === 'created' ? 201 : 200;
  });

  router.delete(REGISTRATION, (ctx) => {
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, ctx.params.serial ?? '')) return;
    unregisterDevice(deps, registrationOf(ctx, apple));
    ctx.status = 200;
  });

  // No authentication by Apple's design: the device library id is the device's own secret.
  router.get(DEVICE_PASSES, (ctx) => {
    const { deviceLibraryId = '', passTypeId = '' } = ctx.params;
    if (!deps.wallet.apple) {
      ctx.status = 404;
      return;
    }
    const sinceText = typeof ctx.query.passesUpdatedSince === 'string' ? ctx.query.passesUpdatedSince : '';
    const since = /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : undefined;
    const updated = passesUpdatedSince(deps.db, deviceLibraryId, passTypeId, since);
    if (!updated) {
      ctx.status = 204;
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(updated);
  });

  router.get(PASS, async (ctx) => {
    const { serial = '' } = ctx.params;
    const apple = appleFor(ctx);
    if (!apple || !authorized(ctx, serial)) return;
    const since = Date.parse(ctx.get('If-Modified-Since'));
    const latest = await latestPass(deps, apple, serial, Number.isNaN(since) ? undefined : since);
    if (latest.kind === 'gone') {
      ctx.status = 401;
      return;
    }
    const lastModified = lastModifiedSeconds(latest.modifiedAt, deps.clock.now());
    if (latest.kind === 'current') {
      ctx.status = 304;
      ctx.set('Last-Modified', httpDate(lastModified));
      return;
    }
    sendPkpass(ctx, latest.pkpass, latest.card, lastModified);
  });

  // Unauthenticated and written to the operator's log, so flooding it must cost the sender: it
  // shares the per-address budget of the public pages. The device endpoints above do not: phones
  // behind one carrier NAT or reverse proxy share an address and all ask at once after a push,
  // they cost little until a token matches, and a token cannot be guessed.
  router.post(LOG, async (ctx) => {
    limitAnonymous(ctx, deps, limiter);
    const parsed = v.safeParse(LogBody, await readJsonBody(ctx).catch(() => undefined));
    if (parsed.success) recordDeviceLog(deps.log, parsed.output.logs);
    ctx.status = 200;
  });
}
