// The offline queue: awards made while the server cannot be reached wait in
// IndexedDB — which survives a reload, a closed tab and a restarted tablet — each with the
// idempotency key of its tap, so sending it twice (a lost answer, two tabs) still applies it once.

export interface QueuedAward {
  /** The tap's idempotency key. */
  key: string;
  orgId: string;
  /** Who made it: it is sent only under that member's own session (attribution cannot move). */
  staffId: string;
  staffName: string;
  customerName: string;
  /** "+1 stamp", "Points to add: 20". */
  label: string;
  /** The form fields as the tap sent them (customer, what, amount, mode, key …), without the CSRF token. */
  fields: Record<string, string>;
  createdAt: number;
}

const DB_NAME = 'wallet-loyalty-counter';
const STORE = 'awards';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      // Resolved when the transaction commits, not when the request succeeds: only then is it on disk.
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export const queueAward = (award: QueuedAward) => run('readwrite', (s) => s.put(award)).then(() => undefined);
export const removeAward = (key: string) => run('readwrite', (s) => s.delete(key)).then(() => undefined);

/** The org's waiting awards, oldest first. */
export async function queuedAwards(orgId: string): Promise<QueuedAward[]> {
  const all = (await run('readonly', (s) => s.getAll())) as QueuedAward[];
  return all.filter((a) => a.orgId === orgId).sort((a, b) => a.createdAt - b.createdAt);
}
