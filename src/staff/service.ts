import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { ApiError, notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import type { Staff } from './model';
import { pinHash } from './pin';
import { staffRepo } from './repo';
import type { StaffInputValue } from './schemas';

export interface StaffDeps {
  db: Db;
  clock: Clock;
}

// Staff are created, re-PINned and disabled by an admin (console, seed file); they can only use
// the counter. Every write is one transaction; a taken PIN writes nothing.

const pinTaken = () => new ApiError(409, 'STAFF_PIN_TAKEN', { detail: 'another staff member of this organisation has this PIN; choose another', extra: { field: 'pin' } });

function freePinHash(deps: StaffDeps, orgId: string, pin: string, exceptId?: string): string {
  const hash = pinHash(deps.db, deps.clock.now(), orgId, pin);
  const holder = staffRepo(deps.db).findByPinHash(orgId, hash);
  if (holder && holder.id !== exceptId) throw pinTaken();
  return hash;
}

export function createStaff(deps: StaffDeps, orgId: string, input: StaffInputValue): Staff {
  return inTransaction(deps.db, () => {
    const now = deps.clock.now();
    const id = newId('stf');
    staffRepo(deps.db).insert({ id, orgId, name: input.name, pinHash: freePinHash(deps, orgId, input.pin), now });
    return staffRepo(deps.db).find(orgId, id)!;
  });
}

export function getStaff(deps: { db: Db }, orgId: string, id: string): Staff {
  const staff = staffRepo(deps.db).find(orgId, id);
  if (!staff) throw notFound('STAFF_NOT_FOUND', id);
  return staff;
}

export function listStaff(deps: { db: Db }, orgId: string): Staff[] {
  return staffRepo(deps.db).list(orgId);
}

export function changeStaffPin(deps: StaffDeps, orgId: string, id: string, pin: string): Staff {
  return inTransaction(deps.db, () => {
    getStaff(deps, orgId, id);
    staffRepo(deps.db).setPin(id, freePinHash(deps, orgId, pin, id), deps.clock.now());
    return getStaff(deps, orgId, id);
  });
}

export function renameStaff(deps: StaffDeps, orgId: string, id: string, name: string): Staff {
  return inTransaction(deps.db, () => {
    getStaff(deps, orgId, id);
    staffRepo(deps.db).setName(id, name, deps.clock.now());
    return getStaff(deps, orgId, id);
  });
}

/** A disabled member's counter session stops working at once: every counter request re-reads the status. */
export function setStaffStatus(deps: StaffDeps, orgId: string, id: string, status: Staff['status']): Staff {
  return inTransaction(deps.db, () => {
    const staff = getStaff(deps, orgId, id);
    if (staff.status !== status) staffRepo(deps.db).setStatus(id, status, deps.clock.now());
    return getStaff(deps, orgId, id);
  });
}

/** The active staff member of the org with this PIN, or undefined. The caller throttles failures. */
export function staffByPin(deps: StaffDeps, orgId: string, pin: string): Staff | undefined {
  const staff = staffRepo(deps.db).findByPinHash(orgId, pinHash(deps.db, deps.clock.now(), orgId, pin));
  return staff?.status === 'active' ? staff : undefined;
}
