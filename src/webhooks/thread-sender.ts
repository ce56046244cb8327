import type { SendOrder, SendReport } from './send-host';
import { createWebhookSender, type SendOutcome, type SendRequest, type WebhookSender } from './send';

/**
 * A webhook sender whose attempts run on another thread while one is attached
 * (background/start.ts), and in this thread before, after and without one.
 */
export interface ThreadSender extends WebhookSender {
  /** A thread takes the attempts from now on; `post` carries a turn's orders to it. */
  attach(post: (orders: SendOrder[]) => void): void;
  /** Outcomes the thread reported. */
  receive(reports: readonly SendReport[]): void;
  /**
   * The thread is gone. The attempts it had not reported are sent again here (the receiver may
   * see one twice, as after any retry, and deduplicates on the event id), and so is every later one.
   */
  detach(): void;
}

interface Pending {
  request: SendRequest;
  resolve(outcome: SendOutcome): void;
  onAbort(): void;
}

export function createThreadSender(local: WebhookSender = createWebhookSender()): ThreadSender {
  let post: ((orders: SendOrder[]) => void) | null = null;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let orders: SendOrder[] = [];

  // The worker starts its attempts in a loop; they leave together once it is done.
  function queue(order: SendOrder) {
    if (orders.length === 0) queueMicrotask(flush);
    orders.push(order);
  }
  function flush() {
    const batch = orders;
    orders = [];
    if (post && batch.length > 0) post(batch);
  }
  function settle(id: number, outcome: SendOutcome) {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    entry.request.signal.removeEventListener('abort', entry.onAbort);
    entry.resolve(outcome);
  }

  return {
    post(request) {
      if (!post) return local.post(request);
      const id = nextId++;
      return new Promise<SendOutcome>((resolve) => {
        const onAbort = () => queue({ type: 'abort', id });
        pending.set(id, { request, resolve, onAbort });
        const { url, body, headers, timeoutMs, blockPrivate } = request;
        queue({ type: 'send', id, request: { url, body, headers, timeoutMs, blockPrivate } });
        if (request.signal.aborted) onAbort();
        else request.signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    attach(next) {
      post = next;
    },
    receive(reports) {
      for (const [id, outcome] of reports) settle(id, outcome);
    },
    detach() {
      post = null;
      orders = [];
      const orphans = [...pending.values()];
      pending.clear();
      for (const entry of orphans) {
        entry.request.signal.removeEventListener('abort', entry.onAbort);
        void local.post(entry.request).then(entry.resolve);
      }
    },
    close() {
      local.close();
    },
  };
}
