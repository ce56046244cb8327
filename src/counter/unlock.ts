import type { AppDeps } from '../deps';
import { inTransaction } from '../db/transaction';
import { clientAddressKey } from '../lib/client-address';
import { sha256Hex } from '../lib/secrets';
import type { Staff } from '../staff/model';
import { staffByPin } from '../staff/service';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { clearFailures, lockedForSeconds, recordFailure, type ThrottlePolicy } from '../web/throttle';
import { throttleRepo } from '../web/throttle-repo';
import { counterDevicesRepo } from './devices-repo';

// Unlocking the counter with a PIN (each staff member has their own), and the pauses that keep
// PINs from being guessed. Wrong PINs are counted per device (a random id in its own long-lived
// cookie), per client address and per org: one device that guesses is stopped first; one that drops its cookie
// meets its address's limit; many addresses together meet the org's.
//
// The address and org pauses stop only devices new to the counter. A device on which staff
// unlocked the counter in the last 30 days (every staff session began with such an unlock) answers
// for its own wrong PINs alone: a stranger with fresh cookies, on the shop's Wi-Fi or anywhere,
// cannot lock the shop's own tablets out.

type PinDeps = Pick<AppDeps, 'db' | 'clock'>;

const MINUTE = 60_000;
/** The fifth wrong PIN on one device within 15 minutes pauses it for 15 minutes. */
export const DEVICE_PIN_POLICY: ThrottlePolicy = { maxFailures: 4, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** The tenth wrong PIN from one client address within 15 minutes pauses its new devices for 15 minutes. */
export const ADDRESS_PIN_POLICY: ThrottlePolicy = { maxFailures: 9, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** The twentieth wrong PIN on an org's new devices within 15 minutes pauses all its new devices for 15 minutes. */
export const ORG_PIN_POLICY: ThrottlePolicy = { maxFailures: 19, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** How long a device staff unlocked stays one of the shop's own: a month of closing leaves it new. */
const KNOWN_DEVICE_MS = 30 * 24 * 60 * MINUTE;

// Device and address pauses are counted per org, so the owner's Staff page can list the org's
// paused devices and addresses and lift a pause (pausedCounters, liftCounterPause below).
const devicePrefix = (orgId: string) => `counter-device:${orgId}:`;
const deviceBucket = (orgId: string, deviceId: string) => `${devicePrefix(orgId)}${deviceId}`;
const addressPrefix = (orgId: string) => `counter-address:${orgId}:`;
const addressBucket = (orgId: string, ip: string) => `${addressPrefix(orgId)}${clientAddressKey(ip)}`;
const orgBucket = (orgId: string) => `counter-org:${orgId}`;

/** How the PIN screen and the Staff page name a device: the end of its random id, enough to tell a shop's few apart. */
export const deviceLabel = (deviceId: string) => deviceId.slice(-6).toUpperCase();

export interface PausedCounter {
  /** One device (label: its deviceLabel), the new devices at one client address (label: the address), or every new device of the shop. */
  kind: 'device' | 'address' | 'shop';
  label: string | null;
  until: number;
}

/** The org's counters paused after wrong PINs: each device, each address, and the org-wide pause. */
export function pausedCounters(deps: PinDeps, orgId: string): PausedCounter[] {
  const now = deps.clock.now();
  const repo = throttleRepo(deps.db);
  const org = repo.find(orgBucket(orgId));
  const shop: PausedCounter[] = org?.lockedUntil && org.lockedUntil > now ? [{ kind: 'shop', label: null, until: org.lockedUntil }] : [];
  const addresses = repo.lockedWithPrefix(addressPrefix(orgId), now).map((b): PausedCounter => ({ kind: 'address', label: b.bucket.slice(addressPrefix(orgId).length), until: b.lockedUntil! }));
  const devices = repo.lockedWithPrefix(devicePrefix(orgId), now).map((b): PausedCounter => ({ kind: 'device', label: deviceLabel(b.bucket.slice(devicePrefix(orgId).length)), until: b.lockedUntil! }));
  return [...shop, ...addresses, ...devices];
}

/**
 * The owner lifts a pause from the console (`kind` and `label` as pausedCounters lists it): its
 * count starts again from nothing. True when one was lifted.
 */
export function liftCounterPause(deps: PinDeps, orgId: string, pause: Pick<PausedCounter, 'kind' | 'label'>): boolean {
  const repo = throttleRepo(deps.db);
  let bucket: string | undefined;
  if (pause.kind === 'shop') bucket = repo.find(orgBucket(orgId)) ? orgBucket(orgId) : undefined;
  else if (pause.kind === 'address') bucket = repo.lockedWithPrefix(addressPrefix(orgId), deps.clock.now()).find((b) => b.bucket === `${addressPrefix(orgId)}${pause.label}`)?.bucket;
  else bucket = repo.lockedWithPrefix(devicePrefix(orgId), deps.clock.now()).find((b) => deviceLabel(b.bucket.slice(devicePrefix(orgId).length)) === pause.label)?.bucket;
  if (!bucket) return false;
  clearFailures(deps, [bucket]);
  return true;
}

export interface UnlockAttempt {
  orgId: string;
  /** The device cookie's id. */
  device: string;
  /** The client address (ctx.ip). */
  ip: string;
  pin: string;
  /** The shop's language: the PIN screen's messages are in it. */
  lang: Lang;
}

export type UnlockOutcome = { ok: true; staff: Staff } | { ok: false; message: string; lockedSeconds: number };

/** One of the shop's own devices: staff unlocked the counter on it lately. */
function isKnownDevice(deps: PinDeps, attempt: UnlockAttempt): boolean {
  return counterDevicesRepo(deps.db).unlockedSince(attempt.orgId, sha256Hex(attempt.device), deps.clock.now() - KNOWN_DEVICE_MS);
}

/** "15 minutes", "40 Sekunden": how long a pause still lasts. */
function waitText(lang: Lang, seconds: number): string {
  return seconds >= 90 ? t(lang, 'counter.wait', { unit: 'minute', count: Math.ceil(seconds / 60) }) : t(lang, 'counter.wait', { unit: 'second', count: seconds });
}

function pausedMessage(deps: PinDeps, attempt: UnlockAttempt, known: boolean): { message: string; lockedSeconds: number } | undefined {
  const { orgId, device, ip, lang } = attempt;
  const deviceLock = lockedForSeconds(deps, [deviceBucket(orgId, device)]);
  if (deviceLock > 0) {
    return {
      lockedSeconds: deviceLock,
      message: t(lang, 'counter.pin.pausedDevice', { wait: waitText(lang, deviceLock), device: deviceLabel(device) }),
    };
  }
  if (known) return undefined;
  const addressLock = lockedForSeconds(deps, [addressBucket(orgId, ip)]);
  if (addressLock > 0) {
    return {
      lockedSeconds: addressLock,
      message: t(lang, 'counter.pin.pausedAddress', { wait: waitText(lang, addressLock) }),
    };
  }
  const orgLock = lockedForSeconds(deps, [orgBucket(orgId)]);
  if (orgLock > 0) {
    return {
      lockedSeconds: orgLock,
      message: t(lang, 'counter.pin.pausedShop', { wait: waitText(lang, orgLock) }),
    };
  }
  return undefined;
}

/** Checks a PIN against the org's active staff, with the device, address and org pauses in front. */
export function unlock(deps: PinDeps, attempt: UnlockAttempt): UnlockOutcome {
  const { orgId, device, ip, pin } = attempt;
  const known = isKnownDevice(deps, attempt);
  // While paused the PIN is not even looked at: no answer may tell a right PIN from a wrong one then.
  const paused = pausedMessage(deps, attempt, known);
  if (paused) return { ok: false, ...paused };
  const staff = /^\d{4,8}$/.test(pin) ? staffByPin(deps, orgId, pin) : undefined;
  if (!staff) {
    const own = { bucket: deviceBucket(orgId, device), policy: DEVICE_PIN_POLICY };
    recordFailure(deps, known ? [own] : [own, { bucket: addressBucket(orgId, ip), policy: ADDRESS_PIN_POLICY }, { bucket: orgBucket(orgId), policy: ORG_PIN_POLICY }]);
    const nowPaused = pausedMessage(deps, attempt, known);
    if (nowPaused) return { ok: false, ...nowPaused };
    return { ok: false, lockedSeconds: 0, message: t(attempt.lang, 'counter.pin.wrong') };
  }
  const now = deps.clock.now();
  inTransaction(deps.db, () => {
    clearFailures(deps, [deviceBucket(orgId, device)]);
    const devices = counterDevicesRepo(deps.db);
    devices.unlocked(orgId, sha256Hex(device), now);
    devices.forgetBefore(orgId, now - KNOWN_DEVICE_MS);
  });
  return { ok: true, staff };
}
