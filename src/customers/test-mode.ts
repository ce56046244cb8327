import type { Card } from '../cards/model';
import type { Db } from '../db/open';
import { ApiError } from '../http/errors';
import type { Namespace } from './model';
import { customersRepo } from './repo';

// The test-key sandbox (spec 5 and 8, decisions §5): test customers live apart from live ones,
// at most 100 per org, their passes marked as test passes.

export const TEST_CUSTOMER_LIMIT = 100;

/** The name a pass shows: test passes say so, so nobody mistakes one for a real card. */
export function passDisplayName(card: Pick<Card, 'name'>, livemode: boolean): string {
  return livemode ? card.name : `TEST · ${card.name}`;
}

/** 409 TEST_CUSTOMER_LIMIT (spec 7 body) when a test key would create customer 101. Matching is never limited. */
export function assertRoomForTestCustomer(db: Db, n: Namespace): void {
  if (n.livemode) return;
  if (customersRepo(db).count(n) < TEST_CUSTOMER_LIMIT) return;
  throw new ApiError(409, 'TEST_CUSTOMER_LIMIT', {
    errorName: 'TEST_CUSTOMER_LIMIT',
    detail: `this organisation already has ${TEST_CUSTOMER_LIMIT} test customers; existing ones can still be matched and updated`,
  });
}
