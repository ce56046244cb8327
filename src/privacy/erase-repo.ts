import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The statements of an erasure, for the places copies.ts lists: the customer row and the copies of
// it in the search index, events, stored answers, emails, edits and birthdays. A feature that keeps
// more of a person adds its entry to copies.ts, with its statement here or in its own repo.

function createEraseRepo(db: Db) {
  // NULLs for every personal value; the codes become markers (secret-codes.ts erasedCodeMarker).
  // The pass version moves on, so wallets fetch the voided pass.
  const clearPersonal = db.prepare(
    `UPDATE customers SET external_id = NULL, name = NULL, email = NULL, email_norm = NULL, phone = NULL, phone_norm = NULL,
       custom_fields = '{}', consent_sha256 = NULL, consent_at = NULL, install_code = @installCode, scan_code = @scanCode,
       pass_version = pass_version + 1, pass_updated_at = @now, updated_at = @now
     WHERE id = @id AND erased_at IS NULL`,
  );
  // Apart from the statement above: the search triggers index the NULLs first, then this one's
  // trigger (migration 19) takes the customer out of the index and the counts.
  const markErased = db.prepare('UPDATE customers SET erased_at = @now WHERE id = @id');
  // Events already sent keep their id and type; a replay or a retry no longer carries the external
  // id. Only the org's events since the customer joined are read (events_org), not the whole outbox.
  const scrubEvents = db.prepare(
    `UPDATE events SET payload = json_set(payload, '$.data.externalCustomerId', NULL)
     WHERE org_id = @orgId AND livemode = @livemode AND created_at >= @since AND customer_id = @id
       AND json_extract(payload, '$.data.externalCustomerId') IS NOT NULL`,
  );
  // customer.deleted carries the external id as it was, for the endpoints that must find their copy;
  // when no endpoint receives the event, nobody needs it and it goes at once. Otherwise it leaves
  // with the webhook history (30 days).
  const scrubUndelivered = db.prepare(
    `UPDATE events SET payload = json_set(payload, '$.data.externalCustomerId', NULL)
     WHERE id = @eventId AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = @eventId)`,
  );
  // Stored answers of the last 24 hours that name the customer (enroll's, PATCH's, the counter's,
  // the sign-up form's) hold the external id and the install link: they go. A retry of such a
  // request after the erasure runs again instead of replaying.
  const dropIdempotency = db.prepare('DELETE FROM idempotency_keys WHERE org_id = @orgId AND livemode = @livemode AND instr(response_body, @id) > 0');
  const scrubMail = db.prepare(
    `UPDATE mail_sends SET recipient = NULL,
       error = CASE WHEN status = 'pending' THEN 'not sent: the customer''s personal data was deleted' ELSE NULL END,
       status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END,
       next_attempt_at = NULL, lease_until = NULL, updated_at = @now
     WHERE customer_id = @id`,
  );
  // The birthday read from an answer (customers/birthdays.ts) goes with the answer.
  const dropBirthday = db.prepare('DELETE FROM customer_birthdays WHERE customer_id = @id');
  // An edit's record keeps which fields changed, not what they held.
  const scrubChanges = db.prepare(
    `UPDATE customer_changes
     SET changes = (SELECT json_group_array(json_object('field', json_extract(value, '$.field'))) FROM json_each(customer_changes.changes))
     WHERE customer_id = @id`,
  );
  // FTS5 keeps a deleted row's words in the index until its segments are merged (contentless_delete
  // leaves a tombstone). A negative 'merge' makes every segment eligible, so repeated steps end in
  // one segment without any deleted row's words, as 'optimize' would, a few pages at a time
  // (search-merge.ts). A step that did work changes total_changes() by 2 or more.
  const mergeSearch = db.prepare("INSERT INTO customer_search (customer_search, rank) VALUES ('merge', @pages)");
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const latestErasure = db.prepare<[], number | null>("SELECT max(created_at) FROM customer_changes WHERE kind = 'erase'").pluck();

  return {
    /** False when the customer was already erased. */
    clearPersonal: (input: { id: string; installCode: string; scanCode: string; now: number }) => clearPersonal.run(input).changes === 1,
    markErased: (id: string, now: number) => markErased.run({ id, now }),
    scrubEvents: (input: { id: string; orgId: string; livemode: boolean; since: number }) => scrubEvents.run({ ...input, livemode: input.livemode ? 1 : 0 }).changes,
    scrubUndelivered: (eventId: string) => scrubUndelivered.run({ eventId }).changes,
    dropIdempotency: (input: { id: string; orgId: string; livemode: boolean }) => dropIdempotency.run({ ...input, livemode: input.livemode ? 1 : 0 }).changes,
    scrubMail: (id: string, now: number) => scrubMail.run({ id, now }).changes,
    scrubChanges: (id: string) => scrubChanges.run({ id }).changes,
    /** One step of the search index's merge, at most about `pages` pages; false when there was nothing left to merge. */
    mergeSearchStep: (pages: number) => {
      const before = totalChanges.get()!;
      mergeSearch.run({ pages: -pages });
      return totalChanges.get()! - before >= 2;
    },
    /** When the newest erasure was made (customer_changes is small: edits and erasures only). */
    latestErasureAt: () => latestErasure.get() ?? null,
    dropBirthday: (id: string) => dropBirthday.run({ id }).changes,
  };
}

export const eraseRepo = perConnection(createEraseRepo);
