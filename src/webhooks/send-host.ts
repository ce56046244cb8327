import { createWebhookSender, type SendOutcome, type SendRequest } from './send';

// The background thread's side of webhook attempts (background/start.ts says why they run there);
// thread-sender.ts is the server's side. Both sides batch: the orders of one turn of the event
// loop travel in one message, and so do the outcomes.

/** What the server asks of the thread: send an attempt, or stop waiting for one (the server shuts down). */
export type SendOrder = { type: 'send'; id: number; request: Omit<SendRequest, 'signal'> } | { type: 'abort'; id: number };
/** One attempt's outcome, by the id of its order. */
export type SendReport = [id: number, outcome: SendOutcome];

export interface SendHost {
  receive(orders: readonly SendOrder[]): void;
  /** Closes every kept connection (the thread stops). */
  close(): void;
}

/** Sends what it is told with the same code as the server's own sender (send.ts) and reports each outcome. */
export function hostWebhookSends(report: (reports: SendReport[]) => void): SendHost {
  const sender = createWebhookSender();
  const inFlight = new Map<number, AbortController>();
  let reports: SendReport[] = [];

  function flush() {
    const batch = reports;
    reports = [];
    report(batch);
  }
  function settle(id: number, outcome: SendOutcome) {
    inFlight.delete(id);
    if (reports.length === 0) setImmediate(flush);
    reports.push([id, outcome]);
  }

  return {
    receive(orders) {
      for (const order of orders) {
        if (order.type === 'abort') {
          inFlight.get(order.id)?.abort();
          continue;
        }
        const controller = new AbortController();
        inFlight.set(order.id, controller);
        const { url, body, headers, timeoutMs, blockPrivate } = order.request;
        // A URL the sender cannot even begin with fails this attempt, never the thread.
        Promise.resolve()
          .then(() => sender.post({ url, body, headers, timeoutMs, blockPrivate, signal: controller.signal }))
          .then(
            (outcome) => settle(order.id, outcome),
            (err: unknown) => settle(order.id, { succeeded: false, responseCode: null, error: err instanceof Error ? err.message : String(err), durationMs: 0 }),
          );
      }
    },
    close() {
      sender.close();
    },
  };
}
