import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { fromHundredths, toHundredths } from '../lib/money';
import { ApiError, validationFailed } from '../lib/errors';
import type { WriteDeps } from '../deps';
import { DEFAULT_FLAG_AWARDS_PER_DAY, findQuestion, IDENTIFIER_TYPES, PASS_TYPE_NAMES, programFieldAllowed, type Card, type CardCustomerCounts, type CardLogo, type CardLogoMeta } from './model';
import { cardsRepo } from './repo';
import { rewardsFromInput, withRewards } from './rewards';
import { applyProgramPatch, type ProgramPatch } from './program';
import { birthdayQuestionProblem, expiryTypeMessage, type BirthdayInput, type CardConfigInput, type ExpiryInput } from './schemas';

export interface CardDeps {
  db: Db;
  clock: Clock;
}

/** A level card without configured tiers still has one tier, so its balance always has a level. */
const DEFAULT_LEVELS = [{ name: 'Member', minPoints: 0 }];

/** Creates a card from a validated configuration (seed, demo org, console). Amounts arrive in units. */
export function createCard(deps: CardDeps, orgId: string, config: CardConfigInput): Card {
  const now = deps.clock.now();
  const card = withExpiryAndBirthday(cardFromConfig({ id: newId('card'), orgId, createdAt: now, archivedAt: null, rewards: [], flagAwardsPerDay: null, unitValueE4: null }, config, now), NO_PROGRAM, config, now);
  cardsRepo(deps.db).insert(card);
  return card;
}

/**
 * The card a configuration describes; amounts from units to hundredths. `before` is the card as
 * stored (a new one: no rewards, nothing set): reward ids are kept from it, and the fields a
 * configuration leaves out (an editor that does not show them) stay as they were.
 */
function cardFromConfig(before: Pick<Card, 'id' | 'orgId' | 'createdAt' | 'archivedAt' | 'rewards' | 'flagAwardsPerDay' | 'unitValueE4'>, config: CardConfigInput, now: number): Omit<Card, ExpiryFields> {
  const levels = config.levels ?? (config.passType === 'level_card' ? DEFAULT_LEVELS : null);
  return {
    id: before.id,
    orgId: before.orgId,
    createdAt: before.createdAt,
    archivedAt: before.archivedAt,
    name: config.name,
    passType: config.passType,
    dataCollectionEnabled: config.dataCollectionEnabled,
    signupFields: { ...config.signupFields },
    questions: config.questions.map((q) => ({
      key: q.key,
      label: q.label,
      type: q.type,
      required: q.required,
      isIdentifier: q.isIdentifier,
      ...(q.options ? { options: q.options } : {}),
    })),
    ...withRewards(rewardsOfConfig(before.rewards, config)),
    flagAwardsPerDay: config.flagAwardsPerDay === undefined ? before.flagAwardsPerDay : config.flagAwardsPerDay,
    unitValueE4: config.unitValue === undefined ? before.unitValueE4 : config.unitValue === null ? null : Math.round(config.unitValue * 10_000),
    levels: levels ? levels.map((l) => ({ name: l.name, minPoints: toHundredths(l.minPoints) })) : null,
    accrual: config.accrual
      ? {
          ...(config.accrual.spend ? { spend: config.accrual.spend } : {}),
          ...(config.accrual.items ? { items: Object.fromEntries(Object.entries(config.accrual.items).map(([k, n]) => [k, toHundredths(n)])) } : {}),
        }
      : null,
    earningLimits: config.earningLimits
      ? {
          ...(config.earningLimits.waitSeconds !== undefined ? { waitSeconds: config.earningLimits.waitSeconds } : {}),
          ...(config.earningLimits.maxPerAward !== undefined ? { maxPerAward: toHundredths(config.earningLimits.maxPerAward) } : {}),
          ...(config.earningLimits.period !== undefined ? { period: config.earningLimits.period } : {}),
          ...(config.earningLimits.maxPerPeriod !== undefined ? { maxPerPeriod: toHundredths(config.earningLimits.maxPerPeriod) } : {}),
        }
      : null,
    design: config.design ?? null,
    updatedAt: now,
  };
}

/**
 * The reward list a configuration gives. `rewards` is the list itself (the console's editor lists
 * every reward, so a list without rows is a card without rewards); the one-reward form `reward`
 * (older seed files) replaces the default entry, keeping its id, and leaves the others; neither
 * gives none.
 */
function rewardsOfConfig(existing: Card['rewards'], config: CardConfigInput): Card['rewards'] {
  if (config.rewards) return rewardsFromInput(existing, config.rewards);
  if (!config.reward) return [];
  return [{ id: existing[0]?.id ?? newId('rw'), name: config.reward.name, cost: toHundredths(config.reward.cost) }, ...existing.slice(1)];
}

const BALANCE_UNITS: Readonly<Record<Card['passType'], string>> = { stamp_card: 'stamps', point_card: 'points', level_card: 'points', prepaid_card: 'store credit' };

/** What a pass shows of its card: a change here must reach every installed pass. */
const passFacing = (card: Card) => JSON.stringify([card.name, card.passType, card.rewards, card.levels, card.design]);

/**
 * Replaces the card's whole configuration (the console's editor) in one transaction. A card with
 * customers keeps its type: their balances are counted in its units (stamps, points, credit). When
 * what passes show changed, every installed pass is refreshed (onChange.cardChanged).
 */
export function updateCard(deps: WriteDeps, orgId: string, cardId: string, config: CardConfigInput): Card {
  return inTransaction(deps.db, () => {
    const before = getOrgCard(deps, orgId, cardId);
    const repo = cardsRepo(deps.db);
    if (config.passType !== before.passType) {
      const customers = repo.customerCount(cardId);
      if (customers > 0) {
        throw new ApiError(409, 'CARD_TYPE_LOCKED', {
          detail: `this card has ${customers} customer${customers === 1 ? '' : 's'} (live and test data together), whose balances count ${BALANCE_UNITS[before.passType]}, so it stays a ${PASS_TYPE_NAMES[before.passType]}. Create a new card for another type`,
          extra: { field: 'passType' },
        });
      }
    }
    const now = deps.clock.now();
    const card = withExpiryAndBirthday(cardFromConfig(before, config, now), before, config, now);
    repo.update(card);
    afterBirthdayChange(deps, before, card);
    if (passFacing(card) !== passFacing(before)) deps.onChange.cardChanged(deps, card.id);
    return card;
  });
}

/** Stores the card's logo (checked by prepareLogo), replacing any other; passes show it. */
export function setCardLogo(deps: WriteDeps, orgId: string, cardId: string, logo: CardLogo): void {
  inTransaction(deps.db, () => {
    getOrgCard(deps, orgId, cardId);
    const now = deps.clock.now();
    cardsRepo(deps.db).setLogo(cardId, logo, now);
    cardsRepo(deps.db).touch(cardId, now);
    deps.onChange.cardChanged(deps, cardId);
  });
}

/** Removes the card's logo: passes go back to the mark drawn in the card's colours. */
export function removeCardLogo(deps: WriteDeps, orgId: string, cardId: string): void {
  inTransaction(deps.db, () => {
    getOrgCard(deps, orgId, cardId);
    if (!cardsRepo(deps.db).removeLogo(cardId)) return;
    cardsRepo(deps.db).touch(cardId, deps.clock.now());
    deps.onChange.cardChanged(deps, cardId);
  });
}

/** Customers per card of the org, live and test apart, erased ones apart too (0 for a card without any). */
export function cardCustomerCounts(deps: CardDeps, orgId: string): (cardId: string) => CardCustomerCounts {
  const counts = cardsRepo(deps.db).customerCounts(orgId);
  return (cardId) => counts.get(cardId) ?? { live: 0, test: 0, erased: { live: 0, test: 0 } };
}

/**
 * The org's card by id: 404 CARD_NOT_FOUND when no org has it, 403 CARD_NOT_IN_ORG when another
 * org does. Every channel that names a card goes through here.
 */
export function getOrgCard(deps: CardDeps, orgId: string, cardId: string): Card {
  const card = cardsRepo(deps.db).findById(cardId);
  if (!card) throw new ApiError(404, 'CARD_NOT_FOUND', { detail: cardId });
  if (card.orgId !== orgId) throw new ApiError(403, 'CARD_NOT_IN_ORG', { detail: `${cardId} belongs to another organisation` });
  return card;
}

/** The card with this id, whichever org has it; for a card id read from the org's own rows (a customer's, an import's). */
export function findCard(deps: { db: Db }, cardId: string): Card | undefined {
  return cardsRepo(deps.db).findById(cardId);
}

export function listCards(deps: { db: Db }, orgId: string): Card[] {
  return cardsRepo(deps.db).listForOrg(orgId);
}

/** The cards open to new members (not archived): what the counter offers. */
export function listActiveCards(deps: CardDeps, orgId: string): Card[] {
  return listCards(deps, orgId).filter((card) => card.archivedAt === null);
}

/**
 * Archives the card: its sign-up form closes and the counter stops offering it, while
 * its customers keep their passes, balances and updates. Restoring opens it again. Idempotent.
 */
export function setCardArchived(deps: CardDeps, orgId: string, cardId: string, archived: boolean): Card {
  return inTransaction(deps.db, () => {
    const card = getOrgCard(deps, orgId, cardId);
    if ((card.archivedAt !== null) === archived) return card;
    const now = deps.clock.now();
    const archivedAt = archived ? now : null;
    cardsRepo(deps.db).setArchived(card.id, archivedAt, now);
    return { ...card, archivedAt, updatedAt: now };
  });
}

/**
 * Deletes a card no live customer holds (the demo cards, a card made by mistake). Its
 * test customers go with it, as the 30-day sweep would remove them: their events first (the
 * customers feature, through onChange.cardDeleting), then the rest by cascade. A card with live
 * customers is refused (archive it instead).
 */
export function deleteCard(deps: WriteDeps, orgId: string, cardId: string): void {
  inTransaction(deps.db, () => {
    const card = getOrgCard(deps, orgId, cardId);
    const repo = cardsRepo(deps.db);
    const live = repo.liveCustomerCount(card.id);
    if (live > 0) {
      throw new ApiError(409, 'CARD_HAS_CUSTOMERS', {
        detail: `${card.name} has ${live} customer${live === 1 ? '' : 's'} with a pass, so it cannot be deleted. Archive it instead: it closes to new members and their passes keep working`,
      });
    }
    deps.onChange.cardDeleting(deps, card.id);
    repo.remove(card.id);
  });
}

/**
 * PATCH /v1/cards/{cardId}: the identifier question, the program fields, expiry and the birthday
 * treat, each only when sent,
 * in one transaction: a refusal of any of them writes none.
 */
export function patchCard(
  deps: WriteDeps,
  orgId: string,
  cardId: string,
  patch: { identifierQuestionKey?: string | null | undefined; expiry?: ExpiryInput | null | undefined; birthday?: BirthdayInput | null | undefined } & ProgramPatch,
): Card {
  return inTransaction(deps.db, () => {
    let card = getOrgCard(deps, orgId, cardId);
    if (patch.identifierQuestionKey !== undefined) card = setIdentifierQuestion(deps, orgId, cardId, patch.identifierQuestionKey);
    card = applyProgramPatch(deps, card, patch);
    if (patch.expiry === undefined && patch.birthday === undefined) return card;
    const now = deps.clock.now();
    const next = { ...withExpiryAndBirthday(card, card, patch, now), updatedAt: now };
    cardsRepo(deps.db).update(next);
    afterBirthdayChange(deps, card, next);
    return next;
  });
}

/** Makes one question the customer identifier (or clears it), replacing any other in the same write. */
export function setIdentifierQuestion(deps: CardDeps, orgId: string, cardId: string, key: string | null): Card {
  return inTransaction(deps.db, () => {
    const card = getOrgCard(deps, orgId, cardId);
    let chosen: string | null = null;
    if (key !== null) {
      const question = findQuestion(card, key);
      if (!question) throw new ApiError(400, 'UNKNOWN_QUESTION_KEY', { detail: key });
      if (!question.required || !IDENTIFIER_TYPES.includes(question.type)) {
        throw new ApiError(400, 'QUESTION_NOT_ELIGIBLE', {
          detail: `${question.key} must be required and of type ${IDENTIFIER_TYPES.join(', ')} (it is ${question.required ? '' : 'optional, '}${question.type})`,
        });
      }
      chosen = question.key;
    }
    const questions = card.questions.map((q) => ({ ...q, isIdentifier: q.key === chosen }));
    const now = deps.clock.now();
    cardsRepo(deps.db).updateQuestions(card.id, questions, now);
    return { ...card, questions, updatedAt: now };
  });
}

/** The card as the API shows it: amounts back in units. */
export function cardResource(card: Card) {
  return {
    cardId: card.id,
    name: card.name,
    passType: card.passType,
    archived: card.archivedAt !== null,
    dataCollectionEnabled: card.dataCollectionEnabled,
    signupFields: card.signupFields,
    questions: card.questions,
    reward: card.reward && { name: card.reward.name, cost: fromHundredths(card.reward.cost) },
    rewards: card.rewards.map((r) => ({ id: r.id, name: r.name, cost: fromHundredths(r.cost), ...(r.description ? { description: r.description } : {}) })),
    levels: card.levels && card.levels.map((l) => ({ name: l.name, minPoints: fromHundredths(l.minPoints) })),
    accrual: card.accrual && {
      ...(card.accrual.spend ? { spend: card.accrual.spend } : {}),
      ...(card.accrual.items ? { items: Object.fromEntries(Object.entries(card.accrual.items).map(([k, n]) => [k, fromHundredths(n)])) } : {}),
    },
    earningLimits: card.earningLimits && {
      ...card.earningLimits,
      ...(card.earningLimits.maxPerAward !== undefined ? { maxPerAward: fromHundredths(card.earningLimits.maxPerAward) } : {}),
      ...(card.earningLimits.maxPerPeriod !== undefined ? { maxPerPeriod: fromHundredths(card.earningLimits.maxPerPeriod) } : {}),
    },
    flagAwardsPerDay: card.flagAwardsPerDay ?? DEFAULT_FLAG_AWARDS_PER_DAY,
    unitValue: card.unitValueE4 === null ? null : card.unitValueE4 / 10_000,
    expiry: card.expiry,
    birthday: card.birthday && { questionKey: card.birthday.questionKey, units: fromHundredths(card.birthday.units) },
  };
}

// --- Expiry and birthdays ---

type ExpiryFields = 'expiry' | 'birthday' | 'lotsSince';
const NO_PROGRAM: Pick<Card, ExpiryFields> = { expiry: null, birthday: null, lotsSince: null };

/**
 * The card with `expiry` and `birthday` as `given` (left out: as they were on `before`). The first
 * time expiry is switched on, lots_since is set: from then on each award is recorded with the rule
 * in force, so switching expiry on never touches units awarded before. Throws 400
 * UNSUPPORTED_FOR_CARD_TYPE for a rule the card type cannot have, VALIDATION_FAILED for a birthday
 * question that is not one of the card's date questions.
 */
function withExpiryAndBirthday(
  card: Omit<Card, ExpiryFields>,
  before: Pick<Card, ExpiryFields>,
  given: { expiry?: ExpiryInput | null; birthday?: BirthdayInput | null },
  now: number,
): Card {
  const expiry = given.expiry === undefined ? before.expiry : given.expiry && ('months' in given.expiry ? { months: given.expiry.months, remindDays: given.expiry.remindDays } : { inactiveDays: given.expiry.inactiveDays, remindDays: given.expiry.remindDays });
  if (expiry && !programFieldAllowed(card.passType, 'months' in expiry ? 'months' : 'inactiveDays')) {
    throw new ApiError(400, 'UNSUPPORTED_FOR_CARD_TYPE', { detail: `expiry: ${expiryTypeMessage(card.passType)}`, extra: { field: 'expiry' } });
  }
  let birthday = before.birthday;
  if (given.birthday !== undefined) {
    birthday = given.birthday && { questionKey: findQuestion(card as Card, given.birthday.questionKey)?.key ?? given.birthday.questionKey, units: toHundredths(given.birthday.units) };
  }
  if (birthday) {
    if (!programFieldAllowed(card.passType, 'birthday')) throw new ApiError(400, 'UNSUPPORTED_FOR_CARD_TYPE', { detail: 'birthday: store credit has no birthday treat', extra: { field: 'birthday' } });
    const problem = birthdayQuestionProblem(card.questions, birthday.questionKey);
    if (problem) throw validationFailed([{ path: given.birthday ? 'birthday.questionKey' : 'questions', message: given.birthday ? problem : `${problem}: it is the birthday question, so turn the birthday treat off first` }]);
  }
  return { ...card, expiry, birthday, lotsSince: before.lotsSince ?? (expiry ? now : null) };
}

/** A birthday treat switched on, off, or onto another question: the customers' birthdays are read again from their answers (onChange). */
function afterBirthdayChange(deps: WriteDeps, before: Card, after: Card): void {
  const key = after.birthday?.questionKey ?? null;
  if ((before.birthday?.questionKey ?? null) !== key) deps.onChange.birthdayQuestionChanged(deps, after.id, key);
}

/** The card's logo (size and version, not the image), if it has one. */
export function cardLogoMeta(deps: { db: Db }, cardId: string): CardLogoMeta | undefined {
  return cardsRepo(deps.db).logoMeta(cardId);
}
