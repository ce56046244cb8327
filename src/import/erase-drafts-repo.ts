import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The draft imports an erasure must look into (erase-drafts.ts): files uploaded but not yet
// imported, which still hold every row as the owner's spreadsheet had it.

function createDraftFilesRepo(db: Db) {
  const drafts = db.prepare<{ orgId: string; livemode: number }, { id: string; csv: string }>(
    "SELECT id, csv FROM imports WHERE org_id = @orgId AND livemode = @livemode AND status = 'draft' AND csv IS NOT NULL",
  );
  const replace = db.prepare("UPDATE imports SET csv = @csv, total_rows = @totalRows WHERE id = @id AND status = 'draft'");
  return {
    drafts: (orgId: string, livemode: boolean) => drafts.all({ orgId, livemode: livemode ? 1 : 0 }),
    /** The draft's file with rows taken out; its file_sha256 stays that of the upload, which it still names. */
    replaceFile: (id: string, csv: string, totalRows: number) => replace.run({ id, csv, totalRows }).changes === 1,
  };
}

export const draftFilesRepo = perConnection(createDraftFilesRepo);
