import type { CheckpointLoopOptions } from '../db/checkpoint-loop';
import type { SendOrder, SendReport } from '../webhooks/send-host';

/** What the thread is started with. */
export interface ThreadData {
  checkpoints: CheckpointLoopOptions;
}

export type ToThread = { webhooks: SendOrder[] } | { stop: true };
export type FromThread = { webhooks: SendReport[] };
