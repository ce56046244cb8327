import type { CustomFieldValue } from '../../customers/model';
import type { Db } from '../../db/connection';
import { perConnection } from '../../db/per-connection';

// What the CSV export writes besides the list's columns, read per batch of the list by id: the
// answers, the phone's E.164 key and the consent. The list's own reads stay as small as its page.

export interface ExportExtras {
  phoneNorm: string | null;
  customFields: Record<string, CustomFieldValue>;
  consentAt: number | null;
  consentSha256: string | null;
}

function createExportRepo(db: Db) {
  const extras = db.prepare<[string], { id: string; phone_norm: string | null; custom_fields: string; consent_at: number | null; consent_sha256: string | null }>(
    'SELECT c.id, c.phone_norm, c.custom_fields, c.consent_at, c.consent_sha256 FROM json_each(?) j JOIN customers c ON c.id = j.value',
  );
  return {
    extras(ids: readonly string[]): Map<string, ExportExtras> {
      return new Map(
        extras.all(JSON.stringify(ids)).map((r) => [r.id, { phoneNorm: r.phone_norm, customFields: JSON.parse(r.custom_fields) as ExportExtras['customFields'], consentAt: r.consent_at, consentSha256: r.consent_sha256 }]),
      );
    },
  };
}

export const exportRepo = perConnection(createExportRepo);
