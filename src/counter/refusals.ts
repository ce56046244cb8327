import { ApiError, inWords, isInWords, type ValidationIssue } from '../lib/errors';
import type { Lang } from '../i18n/langs';
import { t, type MessageKey, type MessageParams } from '../i18n/translate';
import { TEST_CUSTOMER_LIMIT, TEST_CUSTOMER_LIFETIME_MS } from '../customers/test-mode';
import { humanMessage, FORM_LIMIT_BYTES } from '../web/forms';

// Every refusal the counter shows, in the shop's language. The counter's own refusals (its
// service, its amounts, its enroll form) are worded where they are thrown and marked `inWords`; any
// other comes from a layer below (the loyalty, card, mail and idempotency services, the form
// reader) in the API's English, and is worded here from its code, in one table. A code the table
// does not know (a future one) still reads in the shop's language, naming the code.

type Wording = (err: ApiError) => [MessageKey, MessageParams?];

const keysOf = (err: ApiError): string[] => (Array.isArray(err.extra.keys) ? err.extra.keys.map(String) : []);

/** The API's codes that can reach the counter (its requests, its forms), as the staff read them. */
const BY_CODE: Readonly<Record<string, Wording>> = {
  // The page and its session.
  CSRF_CHECK_FAILED: () => ['counter.error.expired'],
  IDEMPOTENCY_KEY_REUSED: () => ['counter.error.expired'],
  IDEMPOTENCY_KEY_IN_USE: () => ['counter.error.busy'],
  COUNTER_LOCKED: () => ['counter.error.locked'],
  UNSUPPORTED_MEDIA_TYPE: () => ['counter.refusal.unreadable'],
  BAD_REQUEST: () => ['counter.refusal.unreadable'],
  INVALID_JSON: () => ['counter.refusal.unreadable'],
  PAYLOAD_TOO_LARGE: () => ['counter.refusal.tooLarge', { kb: FORM_LIMIT_BYTES / 1024 }],
  RATE_LIMITED: (err) => ['counter.refusal.rateLimited', { seconds: Math.max(1, Number(err.headers['Retry-After']) || 1) }],
  // The card, as the owner may have changed it since the page was drawn.
  CARD_NOT_FOUND: () => ['counter.refusal.cardGone'],
  CARD_NOT_IN_ORG: () => ['counter.refusal.cardGone'],
  CARD_ARCHIVED: () => ['counter.refusal.cardArchived'],
  UNSUPPORTED_FOR_CARD_TYPE: () => ['counter.refusal.notOnCard'],
  REWARD_NOT_CONFIGURED: () => ['counter.refusal.noReward'],
  REWARD_NOT_FOUND: () => ['counter.error.rewardGone'],
  ACCRUAL_RULE_NOT_CONFIGURED: () => ['counter.refusal.earnChanged'],
  CURRENCY_MISMATCH: () => ['counter.refusal.currency'],
  UNKNOWN_ITEM_KEYS: (err) => ['counter.refusal.itemsGone', { count: Math.max(1, keysOf(err).length), items: keysOf(err).join(', ') }],
  // Balances and the card's earning limits.
  INSUFFICIENT_BALANCE: () => ['counter.refusal.balanceLow'],
  AWARD_WAIT_ACTIVE: (err) => ['counter.refusal.wait', { retry: Math.max(1, Number(err.extra.retryAfterSeconds) || 1) }],
  AWARD_MAX_PER_AWARD: () => ['counter.refusal.maxPerAward'],
  AWARD_PERIOD_LIMIT: () => ['counter.refusal.periodLimit'],
  // Customers and their entries.
  CUSTOMER_NOT_FOUND: () => ['counter.error.customerGone'],
  TRANSACTION_NOT_FOUND: () => ['counter.error.noEntry'],
  NOT_REVERSIBLE: () => ['counter.error.notReversible'],
  ALREADY_REVERSED: () => ['counter.error.alreadyUndone'],
  TEST_CUSTOMER_LIMIT: () => ['counter.refusal.testFull', { max: TEST_CUSTOMER_LIMIT, days: TEST_CUSTOMER_LIFETIME_MS / 86_400_000 }],
  EXTERNAL_ID_ON_OTHER_CARD: () => ['counter.refusal.otherCard'],
  EXTERNAL_ID_TAKEN: () => ['counter.refusal.otherCard'],
  RESERVED_CUSTOM_FIELDS: () => ['counter.refusal.questionsChanged'],
  UNKNOWN_CUSTOM_FIELDS: () => ['counter.refusal.questionsChanged'],
  INVALID_CUSTOM_FIELD_VALUES: () => ['counter.refusal.questionsChanged'],
  CUSTOM_FIELD_VALUE_TYPE_MISMATCH: () => ['counter.refusal.questionsChanged'],
  UNKNOWN_QUESTION_KEY: () => ['counter.refusal.questionsChanged'],
  // Email.
  NO_EMAIL_ADDRESS: () => ['counter.error.noEmail'],
  INVALID_EMAIL: () => ['counter.enroll.emailInvalid'],
  MAIL_OFF: () => ['counter.refusal.mailOff'],
};

/** What an API field path names on the counter's screens. */
function fieldOf(path: string): 'amount' | 'items' | 'entry' | 'answer' | 'other' {
  if (path === 'amount' || path === 'spend.amount' || path === 'initialPoints' || path === 'balanceCorrection' || path === 'setPoints') return 'amount';
  if (path === 'items' || path.startsWith('items[') || path.startsWith('items.')) return 'items';
  if (path === 'transactionId' || path === 'type') return 'entry';
  if (path.startsWith('customFields')) return 'answer';
  return 'other';
}

/** One validation issue of a layer below (ledger ranges, custom fields, the idempotency key), as the staff read it: by its reason's values, else by its field. */
function issueWords(lang: Lang, issue: ValidationIssue): string {
  if (issue.path === 'Idempotency-Key') return t(lang, 'counter.error.expired');
  if (issue.path.startsWith('customFields')) return t(lang, 'counter.refusal.questionsChanged');
  const reason = issue.reason;
  if (reason?.id === 'balanceCap') return t(lang, 'counter.refusal.balanceCap', { max: reason.params.max });
  if (reason?.id === 'tooMuch') return t(lang, 'counter.refusal.tooMuch', { max: reason.params.max });
  if (reason?.id === 'wholeOnly') return t(lang, 'counter.refusal.wholeOnly');
  return t(lang, 'counter.refusal.field', { field: fieldOf(issue.path) });
}

/** "enter a whole number, such as 3" → "Enter a whole number, such as 3.": staff read sentences. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** A refusal as the counter shows it, in the shop's language: never the API's English. */
export function counterMessage(lang: Lang, err: ApiError): string {
  const issues = err.code === 'VALIDATION_FAILED' ? err.issues : [];
  if (isInWords(err)) {
    // The counter's own amounts refuse with path-less issues in the shop's words.
    if (issues.length) return issues.map((i) => sentence(i.message)).join(' ');
    return sentence(humanMessage(err));
  }
  if (issues.length) return [...new Set(issues.map((i) => issueWords(lang, i)))].join(' ');
  const wording = BY_CODE[err.code];
  if (!wording) return t(lang, 'counter.refusal.other', { code: err.code });
  const [key, params] = wording(err);
  return t(lang, key, params);
}

/**
 * The refusal as the shop reads it, as an error of the same status and code: what the idempotency
 * store keeps for a tap's key, so a replay says the same words without the API's English.
 */
export function inShopWords(lang: Lang, err: ApiError): ApiError {
  if (isInWords(err)) return err;
  const { issues: _issues, ...extra } = err.extra;
  return inWords(new ApiError(err.status, err.code, { detail: counterMessage(lang, err), extra, headers: err.headers }));
}
