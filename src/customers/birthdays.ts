import type { Card } from '../cards/model';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { clockFor } from '../test-clock/clock';
import { birthdaysRepo } from './birthdays-repo';
import type { Customer, CustomFieldValue } from './model';
import { customersRepo } from './repo';

// A customer's birthday, kept beside their answers for the birthday sweep: every writer of answers
// (enroll, the sign-up form, the counter, PATCH, an import) goes through writeCustomFields or
// keepBirthday, so the birthday can never lag behind the answer. When the answer is set or its day
// changes, the time is recorded: a birthday set or changed within 30 days before it earns nothing
// that year (people change their date to get the treat).

type Answers = Readonly<Record<string, CustomFieldValue>>;
type Deps = { db: Db; clock: Clock };

const DATE = /^\d{4}-(\d{2}-\d{2})$/;

/** The month and day (`MM-DD`) of a `YYYY-MM-DD` answer; undefined for none. */
const monthDayOf = (value: CustomFieldValue | undefined): string | undefined => (typeof value === 'string' ? DATE.exec(value)?.[1] : undefined);

/**
 * Brings the customer's birthday in line with `after` (their answers once written), given what they
 * were (`before`; null for a new customer). Only the day counts: a new year of birth changes nothing.
 */
export function keepBirthday(deps: Deps, card: Card, customer: Pick<Customer, 'id' | 'orgId' | 'livemode'>, before: Answers | null, after: Answers): void {
  if (!card.birthday) return;
  const key = card.birthday.questionKey;
  const day = monthDayOf(after[key]);
  if (before !== null && monthDayOf(before[key]) === day) return;
  const repo = birthdaysRepo(deps.db);
  if (day === undefined) repo.remove(customer.id);
  // In the customer's own time: the test clock for test data, like everything else that happens to them.
  else repo.set(customer.id, day, clockFor(deps, customer.orgId, customer.livemode).now());
}

/** Writes a customer's answers (`merged`, already validated) and keeps their birthday with them. */
export function writeCustomFields(deps: Deps, card: Card, customer: Customer, merged: Answers, now: number): void {
  customersRepo(deps.db).setCustomFields(customer.id, merged, now);
  keepBirthday(deps, card, customer, customer.customFields, merged);
}

/** The card's birthday treat was switched on, off or to another question: every birthday read again from the answers (onChange.birthdayQuestionChanged). */
export function resetBirthdays(deps: { db: Db }, cardId: string, questionKey: string | null): void {
  birthdaysRepo(deps.db).reset(cardId, questionKey);
}
