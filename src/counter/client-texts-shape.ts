import type { MessageKey } from '../i18n/catalogues/en';

// What the server hands the counter's script (client-texts.ts writes it, client/texts.ts reads
// it): the script's messages by name, each a catalogue key and the arguments the script fills in.
// Shared by both sides, so it imports nothing but the catalogue's key type.

/** Client name → catalogue key and the arguments the script fills in. */
export const TEXTS = {
  offline: ['counter.client.offline', []],
  unreachable: ['counter.client.unreachable', []],
  answered: ['counter.client.answered', ['status']],
  answeredReload: ['counter.client.answeredReload', ['status']],
  cameraFailed: ['counter.client.cameraFailed', []],
  cameraHttps: ['counter.client.cameraHttps', []],
  cameraInsecure: ['counter.client.cameraInsecure', []],
  cameraNone: ['counter.client.cameraNone', []],
  cameraBlocked: ['counter.client.cameraBlocked', []],
  cameraMissing: ['counter.client.cameraMissing', []],
  previewOffline: ['counter.client.previewOffline', []],
  redeemOffline: ['counter.client.redeemOffline', []],
  theCustomer: ['counter.client.theCustomer', []],
  award: ['counter.client.award', []],
  awardLabel: ['counter.client.awardLabel', ['field', 'value']],
  saved: ['counter.client.saved', ['award', 'customer']],
  savedPromotions: ['counter.client.savedPromotions', []],
  queueLarge: ['counter.client.queueLarge', ['award', 'customer']],
  queueRefusedItem: ['counter.client.queueRefusedItem', ['award', 'customer', 'message']],
  queueRefused: ['counter.client.queueRefused', ['list']],
} as const satisfies Record<string, readonly [MessageKey, readonly string[]]>;

/** Messages with a count: `{n}` is the number, written by the script in the language's way. */
export const COUNTED = {
  waiting: ['counter.client.waiting', []],
  waitingTitle: ['counter.client.waitingTitle', []],
  queueSent: ['counter.client.queueSent', []],
  pinWaiting: ['counter.client.pinWaiting', []],
  pinWaitingOne: ['counter.client.pinWaitingOne', ['names']],
  pinWaitingMany: ['counter.client.pinWaitingMany', ['names']],
} as const satisfies Record<string, readonly [MessageKey, readonly string[]]>;

export type ClientTextName = keyof typeof TEXTS;
export type ClientCountedName = keyof typeof COUNTED;

export interface ClientTexts {
  lang: string;
  /** The locale numbers, plurals and lists are written in (de-DE). */
  locale: string;
  texts: Record<ClientTextName, string>;
  counted: Record<ClientCountedName, Partial<Record<Intl.LDMLPluralRule, string>>>;
}

