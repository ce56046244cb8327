import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// What of a person the import keeps, for an erasure (erasure.ts): the files of drafts not yet
// imported, with the first values and the dry run kept beside them, and the cells of refused rows
// kept for 30 days after an import.

function createImportErasureRepo(db: Db) {
  const drafts = db.prepare<{ orgId: string; livemode: number }, { id: string; csv: string }>(
    "SELECT id, csv FROM imports WHERE org_id = @orgId AND livemode = @livemode AND status = 'draft' AND csv IS NOT NULL",
  );
  // The stored dry run showed the file as it was: it goes, and the owner checks the file again.
  const replace = db.prepare("UPDATE imports SET csv = @csv, total_rows = @totalRows, samples = @samples, check_report = NULL, check_csv = NULL WHERE id = @id AND status = 'draft'");
  // The org's imports by imports_org, then each one's kept cells by import_rows_cells.
  const refusedCells = db.prepare<{ orgId: string; livemode: number }, { importId: string; row: number; cells: string }>(
    `SELECT r.import_id AS importId, r.row AS row, r.cells AS cells FROM imports i
     JOIN import_rows r INDEXED BY import_rows_cells ON r.import_id = i.id AND r.cells IS NOT NULL
     WHERE i.org_id = @orgId AND i.livemode = @livemode`,
  );
  const forgetCells = db.prepare('UPDATE import_rows SET cells = NULL WHERE import_id = @importId AND row = @row');
  return {
    drafts: (orgId: string, livemode: boolean) => drafts.all({ orgId, livemode: livemode ? 1 : 0 }),
    /** The draft's file with rows taken out, and its first values read from what is left; its file_sha256 stays that of the upload, which it still names. */
    replaceFile: (id: string, file: { csv: string; totalRows: number; samples: string }) => replace.run({ id, ...file }).changes === 1,
    /** The refused rows of the namespace's imports whose cells are still kept. */
    refusedCells: (orgId: string, livemode: boolean) => refusedCells.all({ orgId, livemode: livemode ? 1 : 0 }).map((r) => ({ ...r, cells: JSON.parse(r.cells) as string[] })),
    forgetCells: (importId: string, row: number) => forgetCells.run({ importId, row }).changes === 1,
  };
}

export const importErasureRepo = perConnection(createImportErasureRepo);
