// The only SQL for wallet passes: per-pass tokens, Apple registrations, Google objects and
// callback nonces. Prepared once per connection. The pass-update queue has its own repo.
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

export interface AppleRegistration {
  deviceLibraryId: string;
  passTypeId: string;
  customerId: string;
  pushToken: string;
}

export interface GoogleObjectRow {
  customerId: string;
  objectId: string;
  classId: string;
  linkIssuedAt: number;
  savedAt: number | null;
}

interface RawRegistration {
  device_library_id: string;
  pass_type_id: string;
  customer_id: string;
  push_token: string;
}

interface RawGoogleObject {
  customer_id: string;
  object_id: string;
  class_id: string;
  link_issued_at: number;
  saved_at: number | null;
}

const mapRegistration = (r: RawRegistration): AppleRegistration => ({
  deviceLibraryId: r.device_library_id,
  passTypeId: r.pass_type_id,
  customerId: r.customer_id,
  pushToken: r.push_token,
});

const mapGoogle = (r: RawGoogleObject): GoogleObjectRow => ({
  customerId: r.customer_id,
  objectId: r.object_id,
  classId: r.class_id,
  linkIssuedAt: r.link_issued_at,
  savedAt: r.saved_at,
});

type RegKey = { deviceLibraryId: string; passTypeId: string; customerId: string };

function createWalletRepo(db: Db) {
  const insertToken = db.prepare('INSERT OR IGNORE INTO wallet_passes (customer_id, auth_token, created_at) VALUES (@customerId, @token, @now)');
  const tokenOf = db.prepare<[string], { auth_token: string }>('SELECT auth_token FROM wallet_passes WHERE customer_id = ?');
  const issuedAt = db.prepare<[string], number>('SELECT created_at FROM wallet_passes WHERE customer_id = ?').pluck();

  const findRegistration = db.prepare<RegKey, RawRegistration>(
    `SELECT * FROM wallet_apple_registrations
     WHERE device_library_id = @deviceLibraryId AND pass_type_id = @passTypeId AND customer_id = @customerId`,
  );
  const insertRegistration = db.prepare(
    `INSERT INTO wallet_apple_registrations (device_library_id, pass_type_id, customer_id, push_token, created_at, updated_at)
     VALUES (@deviceLibraryId, @passTypeId, @customerId, @pushToken, @now, @now)`,
  );
  // A device may get a new push token; it resends it with every registration.
  const updateDeviceToken = db.prepare(
    `UPDATE wallet_apple_registrations SET push_token = @pushToken, updated_at = @now
     WHERE device_library_id = @deviceLibraryId AND push_token <> @pushToken`,
  );
  const deleteRegistration = db.prepare<RegKey>(
    `DELETE FROM wallet_apple_registrations
     WHERE device_library_id = @deviceLibraryId AND pass_type_id = @passTypeId AND customer_id = @customerId`,
  );
  const deleteByToken = db.prepare<{ pushToken: string; passTypeId: string }, { customer_id: string }>(
    'DELETE FROM wallet_apple_registrations WHERE push_token = @pushToken AND pass_type_id = @passTypeId RETURNING customer_id',
  );
  const registrationsOf = db.prepare<{ customerId: string; passTypeId: string }, RawRegistration>(
    'SELECT * FROM wallet_apple_registrations WHERE customer_id = @customerId AND pass_type_id = @passTypeId ORDER BY created_at, rowid',
  );
  const countRegistrations = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM wallet_apple_registrations WHERE customer_id = ?');
  // What a device's serial-number list needs: each registered pass and the update sequence number
  // of its last change (0: unchanged since it was issued).
  const devicePasses = db.prepare<{ deviceLibraryId: string; passTypeId: string }, { customer_id: string; seq: number }>(
    `SELECT r.customer_id, coalesce(v.seq, 0) AS seq
     FROM wallet_apple_registrations r
     JOIN customers c ON c.id = r.customer_id
     LEFT JOIN wallet_pass_versions v ON v.customer_id = r.customer_id
     WHERE r.device_library_id = @deviceLibraryId AND r.pass_type_id = @passTypeId
     ORDER BY r.created_at, r.rowid`,
  );
  const markChanged = db.prepare('INSERT OR REPLACE INTO wallet_pass_versions (customer_id, changed_at) VALUES (@customerId, @now)');
  // The highest number the sequence ever handed out (AUTOINCREMENT keeps it in sqlite_sequence).
  const lastSequence = db.prepare<[], { seq: number }>(
    "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'wallet_pass_versions'), 0) AS seq",
  );

  const googleByCustomer = db.prepare<[string], RawGoogleObject>('SELECT * FROM wallet_google_objects WHERE customer_id = ?');
  const googleByObject = db.prepare<[string], RawGoogleObject>('SELECT * FROM wallet_google_objects WHERE object_id = ?');
  const upsertGoogle = db.prepare(
    `INSERT INTO wallet_google_objects (customer_id, object_id, class_id, link_issued_at, saved_at)
     VALUES (@customerId, @objectId, @classId, @now, NULL)
     ON CONFLICT (customer_id) DO UPDATE SET object_id = excluded.object_id, class_id = excluded.class_id, link_issued_at = excluded.link_issued_at`,
  );
  // Applies a save (savedAt) or del (NULL) unless an event that expires later was applied already.
  const applyGoogleEvent = db.prepare(
    `UPDATE wallet_google_objects SET saved_at = @savedAt, event_exp_ms = @expTimeMillis
     WHERE customer_id = @customerId AND (event_exp_ms IS NULL OR event_exp_ms <= @expTimeMillis)`,
  );
  const googleSaved = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM wallet_google_objects WHERE customer_id = ? AND saved_at IS NOT NULL');


  const insertNonce = db.prepare('INSERT OR IGNORE INTO wallet_google_nonces (nonce, expires_at, received_at) VALUES (@nonce, @expiresAt, @now)');
  const sweepNonces = db.prepare('DELETE FROM wallet_google_nonces WHERE expires_at < ?');

  return {
    /** The pass's ApplePass token, created on first use and never changed afterwards. */
    ensureAuthToken(customerId: string, freshToken: string, now: number): string {
      insertToken.run({ customerId, token: freshToken, now });
      return tokenOf.get(customerId)!.auth_token;
    },
    authToken: (customerId: string) => tokenOf.get(customerId)?.auth_token,
    /** When the customer's Apple pass was first issued (its token made); undefined when never. */
    applePassIssuedAt: (customerId: string) => issuedAt.get(customerId),

    findRegistration: (key: RegKey) => {
      const row = findRegistration.get(key);
      return row && mapRegistration(row);
    },
    insertRegistration(reg: AppleRegistration, now: number) {
      insertRegistration.run({ ...reg, now });
    },
    updateDeviceToken(deviceLibraryId: string, pushToken: string, now: number) {
      updateDeviceToken.run({ deviceLibraryId, pushToken, now });
    },
    /** True when a registration was removed. */
    deleteRegistration: (key: RegKey) => deleteRegistration.run(key).changes > 0,
    /** Removes every registration of a dead push token; returns the customers affected. */
    deleteRegistrationsByToken: (pushToken: string, passTypeId: string) => [...new Set(deleteByToken.all({ pushToken, passTypeId }).map((r) => r.customer_id))],
    registrationsOf: (customerId: string, passTypeId: string) => registrationsOf.all({ customerId, passTypeId }).map(mapRegistration),
    countRegistrations: (customerId: string) => countRegistrations.get(customerId)!.n,
    devicePasses: (deviceLibraryId: string, passTypeId: string) =>
      devicePasses.all({ deviceLibraryId, passTypeId }).map((r) => ({ customerId: r.customer_id, sequence: r.seq })),
    /** The pass shows something new: it takes the next update sequence number. */
    markPassChanged(customerId: string, now: number) {
      markChanged.run({ customerId, now });
    },
    /** The last update sequence number handed out (0 before the first change). */
    updateSequence: () => lastSequence.get()!.seq,

    googleObjectOf: (customerId: string) => {
      const row = googleByCustomer.get(customerId);
      return row && mapGoogle(row);
    },
    googleObjectById: (objectId: string) => {
      const row = googleByObject.get(objectId);
      return row && mapGoogle(row);
    },
    recordGoogleLink(row: { customerId: string; objectId: string; classId: string }, now: number) {
      upsertGoogle.run({ ...row, now });
    },
    /**
     * Records a save (`savedAt`) or del (null) callback; false when it is older than the event
     * applied last (Google delivers callbacks in any order; the signed expiry dates them).
     */
    applyGoogleEvent: (customerId: string, savedAt: number | null, expTimeMillis: number) =>
      applyGoogleEvent.run({ customerId, savedAt, expTimeMillis }).changes > 0,
    isGoogleSaved: (customerId: string) => googleSaved.get(customerId)!.n > 0,

    /** False when the nonce was seen before (a retry or a replay). */
    rememberNonce: (nonce: string, expiresAt: number, now: number) => insertNonce.run({ nonce, expiresAt, now }).changes > 0,
    sweepNonces: (now: number) => sweepNonces.run(now).changes,
  };
}

export const walletRepo = perConnection(createWalletRepo);
