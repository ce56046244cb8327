// WAL frames a request writes, counted from outside the server: every page a transaction changes
// is appended to the -wal file as one frame (the page and a 24-byte header) when it commits, so on
// an SD card each frame is a page of wear. The count is deterministic where the rates are not.
//
// While the requests run, a read transaction on a connection of our own holds the WAL: the server's
// checkpoints (and Litestream's) cannot start it over, so the file only grows, frame after frame.
// Each frame header names its page; dbstat says which table or index each page belongs to.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface FrameCount {
  /** Requests the work reported. */
  requests: number;
  frames: number;
  /** Frames per request by table or index (page 1 is the database header), most first. */
  byTree: { name: string; perRequest: number }[];
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Empties the WAL into the database (TRUNCATE: the file is then 0 bytes), so the frames that
 * follow are written from its start and the file's growth is their count. Retried while the
 * server's own writes keep the checkpoint from finishing.
 */
async function emptyWal(dbFile: string): Promise<void> {
  const db = new Database(dbFile, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    for (let i = 0; ; i++) {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (result!.busy === 0) return;
      if (i === 50) throw new Error('the WAL could not be checkpointed: the server kept writing');
      await sleep(20);
    }
  } finally {
    db.close();
  }
}

/** The page number of each frame from byte `from` to `to` of the -wal file. */
function framePages(walFile: string, pageSize: number, from: number, to: number): number[] {
  const fd = openSync(walFile, 'r');
  const header = Buffer.alloc(FRAME_HEADER);
  const pages: number[] = [];
  try {
    for (let at = from; at + FRAME_HEADER + pageSize <= to; at += FRAME_HEADER + pageSize) {
      readSync(fd, header, 0, FRAME_HEADER, at);
      pages.push(header.readUInt32BE(0));
    }
  } finally {
    closeSync(fd);
  }
  return pages;
}

/**
 * Runs `work` (which resolves with the number of requests it made) and counts the frames the
 * server appended to the WAL meanwhile: the -wal file's growth / (page size + 24).
 */
export async function countWalFrames(dbFile: string, work: () => Promise<number>): Promise<FrameCount> {
  const walFile = `${dbFile}-wal`;
  await emptyWal(dbFile);
  const reader = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const pageSize = reader.pragma('page_size', { simple: true }) as number;
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM sqlite_schema').get();
    const start = Math.max(WAL_HEADER, statSync(walFile).size);
    const requests = await work();
    const end = statSync(walFile).size;
    reader.exec('COMMIT');
    const pages = framePages(walFile, pageSize, start, end);
    const names = new Map(reader.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat').all().map((r) => [r.pageno, r.name]));
    const counts = new Map<string, number>();
    for (const page of pages) {
      const name = page === 1 ? 'page 1 (header)' : (names.get(page) ?? 'freed since');
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const byTree = [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, perRequest: n / requests }));
    return { requests, frames: pages.length, byTree };
  } finally {
    if (reader.inTransaction) reader.exec('COMMIT');
    reader.close();
  }
}
