// "Add to Google Wallet" link: a JWT signed by the service account carrying the class and the
// customer's object. Google creates both when the holder saves, so nothing is called before.
import type { GoogleServiceAccount } from './service-account';
import type { LoyaltyClass, LoyaltyObject } from './objects';
import { signRs256Jwt } from './jwt';

export const GOOGLE_SAVE_URL_BASE = 'https://pay.google.com/gp/v/save/';

export interface SaveLinkInput {
  issuerId: string;
  serviceAccount: GoogleServiceAccount;
  /** Origins of pages showing the button (e.g. "https://loyalty.example.com"). */
  origins: string[];
  /** Include to let Google create (or keep) the class on save; omit when it exists already. */
  loyaltyClass?: LoyaltyClass;
  loyaltyObject: LoyaltyObject;
  saveUrlBase?: string;
  /** Milliseconds since the epoch; injected for tests. */
  now?: () => number;
}

/** The signed JWT alone ("savetowallet", RS256). */
export function buildSaveJwt(input: SaveLinkInput): string {
  const prefix = `${input.issuerId}.`;
  // An id of another issuer is refused by Google only after the holder taps the button.
  if (!input.loyaltyObject.id.startsWith(prefix) || !input.loyaltyObject.classId.startsWith(prefix)) {
    throw new Error(`buildSaveJwt: object and class ids must start with the issuer id "${prefix}"`);
  }
  if (input.loyaltyClass && input.loyaltyClass.id !== input.loyaltyObject.classId) {
    throw new Error('buildSaveJwt: loyaltyObject.classId does not match loyaltyClass.id');
  }
  const now = input.now ?? Date.now;
  return signRs256Jwt(
    {
      iss: input.serviceAccount.clientEmail,
      aud: 'google',
      typ: 'savetowallet',
      iat: Math.floor(now() / 1000),
      origins: input.origins,
      payload: {
        ...(input.loyaltyClass ? { loyaltyClasses: [input.loyaltyClass] } : {}),
        loyaltyObjects: [input.loyaltyObject],
      },
    },
    input.serviceAccount.privateKey,
    input.serviceAccount.privateKeyId,
  );
}

/** `https://pay.google.com/gp/v/save/<JWT>` (base configurable). */
export function buildSaveLink(input: SaveLinkInput): string {
  const base = input.saveUrlBase ?? GOOGLE_SAVE_URL_BASE;
  return `${base.endsWith('/') ? base : `${base}/`}${buildSaveJwt(input)}`;
}
