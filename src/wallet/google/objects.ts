// Google Wallet LoyaltyClass / LoyaltyObject bodies from plain card and customer data, and the
// PATCH that moves a saved object's balance. Shapes follow the walletobjects v1 REST reference.
import { parseColor } from '../../lib/colors';
import { passDisplayName } from '../test-mode';

export const GOOGLE_WALLET_API_BASE = 'https://walletobjects.googleapis.com';

/**
 * Google's LoyaltyPointsBalance as we send it: whole counters as int, store credit as a string that
 * keeps its cents ("12.50"). Google's money form needs a currency, which cards do not have.
 */
export type LoyaltyBalance = { int: number } | { string: string };

export interface LoyaltyPoints {
  label: string;
  balance: LoyaltyBalance;
}

export interface TextModule {
  header: string;
  body: string;
  id?: string;
}

export interface LoyaltyClass {
  id: string;
  issuerName: string;
  programName: string;
  programLogo: { sourceUri: { uri: string }; contentDescription: { defaultValue: { language: string; value: string } } };
  reviewStatus: 'UNDER_REVIEW';
  hexBackgroundColor?: string;
  callbackOptions?: { url: string };
}

export interface LoyaltyObject {
  id: string;
  classId: string;
  /** INACTIVE once the customer's data was erased: Google shows the pass as no longer valid. */
  state: 'ACTIVE' | 'INACTIVE';
  accountId: string;
  accountName: string;
  loyaltyPoints: LoyaltyPoints;
  barcode: { type: 'QR_CODE'; value: string; alternateText?: string };
  textModulesData?: TextModule[];
}


/**
 * `<issuerId>.<suffix>`, Google's id format. Characters outside [A-Za-z0-9_-] in the suffix are
 * written as ".XX" (UTF-8 bytes in hex): "." is only ever an escape, so distinct suffixes
 * always give distinct ids, and our usual ids (cus_01H..., UUIDs) pass unchanged.
 */
export function walletResourceId(issuerId: string, suffix: string): string {
  if (!/^\d+$/.test(issuerId)) throw new Error(`Google Wallet issuer id "${issuerId}" must be digits only`);
  if (!suffix) throw new Error('Google Wallet id suffix is empty');
  let encoded = '';
  for (const byte of Buffer.from(suffix, 'utf8')) {
    const ch = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9_-]/.test(ch) ? ch : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `${issuerId}.${encoded}`;
}

export function buildLoyaltyClass(input: {
  id: string;
  issuerName: string;
  programName: string;
  /** Public https URL of the card's logo (Google fetches it; required by the API). */
  programLogoUrl: string;
  testMode: boolean;
  /** Any form parseColor accepts. */
  backgroundColor?: string;
  /** Where Google posts save/delete callbacks for this class. */
  callbackUrl?: string;
  language?: string;
}): LoyaltyClass {
  const programName = passDisplayName(input.programName, input.testMode);
  return {
    id: input.id,
    issuerName: input.issuerName,
    programName,
    programLogo: {
      sourceUri: { uri: input.programLogoUrl },
      contentDescription: { defaultValue: { language: input.language ?? 'en-US', value: programName } },
    },
    // Required when a class is created (also inside a save JWT).
    reviewStatus: 'UNDER_REVIEW',
    ...(input.backgroundColor ? { hexBackgroundColor: parseColor(input.backgroundColor, 'Google class background').hex } : {}),
    ...(input.callbackUrl ? { callbackOptions: { url: input.callbackUrl } } : {}),
  };
}

export function buildLoyaltyObject(input: {
  id: string;
  classId: string;
  accountId: string;
  accountName: string;
  points: LoyaltyPoints;
  /** The customer's scan code. */
  barcodeValue: string;
  barcodeAltText?: string;
  fields?: TextModule[];
}): LoyaltyObject {
  return {
    id: input.id,
    classId: input.classId,
    state: 'ACTIVE',
    accountId: input.accountId,
    accountName: input.accountName,
    loyaltyPoints: input.points,
    barcode: { type: 'QR_CODE', value: input.barcodeValue, ...(input.barcodeAltText ? { alternateText: input.barcodeAltText } : {}) },
    ...(input.fields?.length ? { textModulesData: input.fields } : {}),
  };
}

/**
 * The PATCH body after a balance change: only what changed, so nothing else is overwritten.
 * `voided`: the holder's data was erased; their name on the pass becomes `accountName` (a word
 * such as "Member", in the pass's language).
 */
export function loyaltyObjectUpdate(input: { points: LoyaltyPoints; fields?: TextModule[]; voided?: { accountName: string } }): Partial<LoyaltyObject> {
  return {
    loyaltyPoints: input.points,
    ...(input.fields ? { textModulesData: input.fields } : {}),
    // The holder's name goes with the rest of their data.
    ...(input.voided ? { state: 'INACTIVE' as const, accountName: input.voided.accountName } : {}),
  };
}

export interface PatchResult {
  /** 200 updated; 404 the holder has not saved the object yet (it exists only in the save JWT). */
  status: number;
  /** Google's JSON answer (the object, or its error), or the text when not JSON. */
  body: unknown;
}

/**
 * PATCH walletobjects/v1/loyaltyObject/{id}. Every HTTP answer resolves (404 included) so the
 * caller decides: 404 is not an error for us, 401 means a stale token, 5xx retry. Only network
 * failures and timeouts reject.
 */
export function patchLoyaltyObject(input: { objectId: string; patch: Partial<LoyaltyObject>; accessToken: string; baseUrl?: string; timeoutMs?: number }): Promise<PatchResult> {
  return patchResource('loyaltyObject', input.objectId, input.patch, input);
}

/**
 * PATCH walletobjects/v1/loyaltyClass/{id}: the programme name, colour and logo every pass of the
 * class shows. 404: nobody saved a pass of the class yet (it exists only inside save links).
 */
export function patchLoyaltyClass(input: { classId: string; patch: LoyaltyClassPatch; accessToken: string; baseUrl?: string; timeoutMs?: number }): Promise<PatchResult> {
  return patchResource('loyaltyClass', input.classId, input.patch, input);
}

/** What a card change sends to its class: patch semantics, so nothing else is overwritten. */
export type LoyaltyClassPatch = Pick<LoyaltyClass, 'issuerName' | 'programName' | 'programLogo'> & { hexBackgroundColor: string };

async function patchResource(kind: 'loyaltyObject' | 'loyaltyClass', id: string, patch: unknown, options: { accessToken: string; baseUrl?: string; timeoutMs?: number }): Promise<PatchResult> {
  const base = (options.baseUrl ?? GOOGLE_WALLET_API_BASE).replace(/\/+$/, '');
  const response = await fetch(`${base}/walletobjects/v1/${kind}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${options.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(patch),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // keep the text
  }
  return { status: response.status, body };
}
