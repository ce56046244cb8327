// The rules behind Apple Wallet's pass web service: who may act for a pass, what a registration
// changes, which passes a device must fetch, and when its copy is current. The protocol itself
// (paths, headers, status codes) is wallet/http/apple-routes.ts.
import { inTransaction } from '../../db/transaction';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import { customersRepo } from '../../customers/repo';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/log';
import { sameSecret } from '../../lib/secrets';
import { refreshInstallStatus } from '../install-status';
import { walletRepo } from '../repo';
import type { AppleCredentials } from './credentials';
import { buildCustomerApplePass, passModifiedAt, type PassDeps } from './customer-pass';

/** One device's registration for one pass: the pass's serial number is the passUserId. */
export interface DeviceRegistration {
  deviceLibraryId: string;
  passTypeId: string;
  serial: string;
}

/** Whether `token` is the pass's ApplePass token, compared in constant time; false for a pass we never issued. */
export function passTokenMatches(db: Db, serial: string, token: string): boolean {
  const expected = walletRepo(db).authToken(serial);
  return !!expected && sameSecret(token, expected);
}

/**
 * Records the device's (possibly new) push token and its registration for the pass, which then
 * counts as installed. 'existing' when the device had already registered it.
 */
export function registerDevice(deps: { db: Db; clock: Clock }, registration: DeviceRegistration, pushToken: string): 'created' | 'existing' {
  const { db, clock } = deps;
  const key = { deviceLibraryId: registration.deviceLibraryId, passTypeId: registration.passTypeId, customerId: registration.serial };
  return inTransaction(db, () => {
    const repo = walletRepo(db);
    const now = clock.now();
    repo.updateDeviceToken(registration.deviceLibraryId, pushToken, now);
    if (repo.findRegistration(key)) return 'existing' as const;
    repo.insertRegistration({ ...key, pushToken }, now);
    // Changes made while no device held the pass took no sequence number (updates/queue.ts):
    // this one stands for them, so the device's next "changed since" list includes the pass.
    repo.markPassChanged(registration.serial, now);
    refreshInstallStatus(db, clock, registration.serial);
    return 'created' as const;
  });
}

/** Removes the registration (if any); a pass no wallet holds any more is pending install again. */
export function unregisterDevice(deps: { db: Db; clock: Clock }, registration: DeviceRegistration): void {
  const { db, clock } = deps;
  inTransaction(db, () => {
    if (walletRepo(db).deleteRegistration({ deviceLibraryId: registration.deviceLibraryId, passTypeId: registration.passTypeId, customerId: registration.serial })) {
      refreshInstallStatus(db, clock, registration.serial);
    }
  });
}

/**
 * The serial numbers of the device's passes of this type that changed after the tag `since`
 * (all of them without one), with the tag to send next time; undefined when none changed.
 *
 * The tag is the database's update sequence, read in one snapshot with the passes: every later
 * change takes a higher number, so nothing is skipped however many changes share a millisecond.
 * Another pass type simply has no passes here.
 */
export function passesUpdatedSince(db: Db, deviceLibraryId: string, passTypeId: string, since: number | undefined): { serialNumbers: string[]; lastUpdated: string } | undefined {
  const repo = walletRepo(db);
  const { sequence, passes } = inTransaction(db, () => ({ sequence: repo.updateSequence(), passes: repo.devicePasses(deviceLibraryId, passTypeId) }));
  // A tag above anything this database handed out (it was restored from a backup) tells nothing
  // about what the device holds: list every pass rather than hide changes from it.
  const updated = since === undefined || since > sequence ? passes : passes.filter((p) => p.sequence > since);
  if (updated.length === 0) return undefined;
  // lastUpdated must be a string: devices given a number never ask for the passes.
  return { serialNumbers: updated.map((p) => p.customerId), lastUpdated: String(sequence) };
}

export type LatestPass =
  /** The customer is gone (test customers expire): the pass no longer updates. */
  | { kind: 'gone' }
  /** The device's copy, dated `ifModifiedSince`, is current. */
  | { kind: 'current'; modifiedAt: number }
  | { kind: 'pass'; card: Card; pkpass: Buffer; modifiedAt: number };

/** The pass as it is now, unless the device's copy (dated `ifModifiedSince`, ms) is already current. */
export async function latestPass(deps: PassDeps, apple: AppleCredentials, serial: string, ifModifiedSince: number | undefined): Promise<LatestPass> {
  const customer = customersRepo(deps.db).findByPassUserId(serial);
  const card = customer && cardsRepo(deps.db).findById(customer.cardId);
  if (!customer || !card) return { kind: 'gone' };
  // HTTP dates carry whole seconds: compare the second of the last change with the device's
  // date. The dates we send never name a second a later change could still share
  // (lastModifiedSeconds), so a device's date equal to or past that second means it is current.
  const modifiedAt = passModifiedAt(deps.db, card, customer);
  if (ifModifiedSince !== undefined && Math.floor(modifiedAt / 1000) * 1000 <= ifModifiedSince) return { kind: 'current', modifiedAt };
  return { kind: 'pass', card, pkpass: await buildCustomerApplePass(deps, apple, card, customer), modifiedAt };
}

/** Writes what a device reports to the operator's log, bounded: 20 entries of 500 characters at most. */
export function recordDeviceLog(log: Logger, entries: unknown[]): void {
  // Apple sends strings; anything else is shown as JSON (String() throws on some objects).
  const logs = entries.slice(0, 20).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)).slice(0, 500));
  log.warn('wallet: Apple device log', { logs });
}
