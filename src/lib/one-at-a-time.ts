/**
 * Runs one task at a time. A task that arrives while another runs waits; when the running one
 * ends, the waiting task of the lowest rank starts (of equal ranks, the oldest). A task that fails
 * does not stop the ones after it.
 */
export function oneAtATime(): <T>(rank: number, task: () => Promise<T>) => Promise<T> {
  const waiting: { rank: number; start: () => void }[] = [];
  let running = false;
  const startNext = () => {
    const next = waiting.shift();
    if (next) next.start();
    else running = false;
  };
  return async <T>(rank: number, task: () => Promise<T>): Promise<T> => {
    if (running) {
      // Still `running` when its turn comes: startNext hands the turn on without letting go.
      await new Promise<void>((start) => {
        const at = waiting.findIndex((w) => w.rank > rank);
        waiting.splice(at === -1 ? waiting.length : at, 0, { rank, start });
      });
    }
    running = true;
    try {
      return await task();
    } finally {
      startNext();
    }
  };
}
