/**
 * Runs tasks of the same key one after another, in the order they came; tasks of different keys
 * run side by side. A task that fails does not stop the ones queued after it. Memory holds only
 * the keys with a task running or waiting.
 */
export function oneAtATime(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const result = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
