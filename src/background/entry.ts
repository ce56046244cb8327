// The background thread's program (background/start.ts starts it). Bundled on its own and carried
// as an asset of the server's script (lib/embedded-assets.ts): a thread needs a program of its own,
// and the server's 3 MB would cost its memory and start-up for the little it runs.
import { parentPort, workerData } from 'node:worker_threads';
import { runCheckpointLoop } from '../db/checkpoint-loop';
import { hostWebhookSends } from '../webhooks/send-host';
import type { FromThread, ThreadData, ToThread } from './messages';

const port = parentPort!;
const { checkpoints: checkpointOptions } = workerData as ThreadData;
const reply = (message: FromThread) => port.postMessage(message);

const checkpoints = runCheckpointLoop(checkpointOptions);
const webhooks = hostWebhookSends((reports) => reply({ webhooks: reports }));

port.on('message', (message: ToThread) => {
  if ('webhooks' in message) return webhooks.receive(message.webhooks);
  webhooks.close();
  checkpoints.stop();
  port.close();
});
