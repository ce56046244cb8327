import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import type { Customer } from '../customers/model';
import type { Db } from '../db/connection';
import { isoTime } from '../lib/clock';
import { PERSONAL_DATA } from './copies';

// One customer's data, for their right of access and portability
// (docs/customer-data.md#download-data-access-and-portability): everything this server keeps about
// them, as JSON — the console's "Download data" and `customer export` on the command line. Its
// sections are those of the list in copies.ts, in its order. Amounts are in the card's units, times
// ISO 8601 UTC, as in the API.

export function customerExport(deps: { db: Db; config: Pick<Config, 'installBaseUrl'>; clock: { now(): number } }, customer: Customer): Record<string, unknown> {
  // customers.card_id references cards(id) with ON DELETE CASCADE: the card always exists.
  const card = cardsRepo(deps.db).findById(customer.cardId)!;
  const exported: Record<string, unknown> = { exportedAt: isoTime(deps.clock.now()) };
  for (const copy of PERSONAL_DATA) if (copy.read) Object.assign(exported, copy.read({ db: deps.db, config: deps.config, customer, card }));
  return exported;
}
