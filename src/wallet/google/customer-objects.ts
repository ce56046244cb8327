// One customer's Google Wallet loyalty object and its card's class, the save link that carries
// both, and the PATCH body that follows a balance change.
import type { Card } from '../../cards/model';
import type { Customer } from '../../customers/model';
import { organizationName, type PassDeps } from '../apple/customer-pass';
import { passContent, type PassContent } from '../pass-content';
import { walletRepo } from '../repo';
import type { GoogleWallet } from '../services';
import { buildLoyaltyClass, buildLoyaltyObject, loyaltyObjectUpdate, walletResourceId, type LoyaltyObject, type TextModule } from './objects';
import { buildSaveLink } from './save-link';

/**
 * Test customers get a class of their own: the class carries the program name, and theirs says
 * TEST · (decisions §5). Card ids never contain "-", so "<cardId>-test" cannot meet a real card.
 */
export function googleIds(issuerId: string, card: Card, customer: Customer): { classId: string; objectId: string } {
  return {
    classId: walletResourceId(issuerId, customer.livemode ? card.id : `${card.id}-test`),
    objectId: walletResourceId(issuerId, customer.id),
  };
}

/** Where Google fetches the class logo (a public URL is required by the API). */
export const cardLogoUrl = (publicUrl: string, cardId: string) => `${publicUrl}/wallet/cards/${encodeURIComponent(cardId)}/logo.png`;
export const googleCallbackUrl = (publicUrl: string) => `${publicUrl}/wallet/google/callback`;

const textModules = (content: PassContent): TextModule[] => content.details.map((d) => ({ id: d.key, header: d.label, body: d.value }));

/**
 * The "Add to Google Wallet" link. Records the object first (one small write), so the worker
 * knows this object may exist at Google and the callback can find its customer.
 */
export function issueGoogleSaveLink(deps: PassDeps, google: GoogleWallet, card: Card, customer: Customer): string {
  const { classId, objectId } = googleIds(google.issuerId, card, customer);
  const content = passContent(card, customer, organizationName(deps.db, card));
  deps.db.transaction(() => walletRepo(deps.db).recordGoogleLink({ customerId: customer.id, objectId, classId }, deps.clock.now()))();

  const { publicUrl, installBaseUrl } = deps.config;
  const loyaltyClass = buildLoyaltyClass({
    id: classId,
    issuerName: content.organizationName,
    programName: content.cardName,
    programLogoUrl: cardLogoUrl(publicUrl, card.id),
    testMode: content.testMode,
    ...(card.design?.backgroundColor ? { backgroundColor: card.design.backgroundColor } : {}),
    callbackUrl: googleCallbackUrl(publicUrl),
  });
  const loyaltyObject: LoyaltyObject = buildLoyaltyObject({
    id: objectId,
    classId,
    accountId: content.scanCode,
    accountName: content.holderName ?? 'Member',
    points: { label: content.balance.label, balance: content.balance.google },
    barcodeValue: content.scanCode,
    barcodeAltText: content.scanCode,
    fields: textModules(content),
  });
  return buildSaveLink({
    issuerId: google.issuerId,
    serviceAccount: google.serviceAccount,
    origins: [...new Set([new URL(publicUrl).origin, new URL(installBaseUrl).origin])],
    loyaltyClass,
    loyaltyObject,
    saveUrlBase: deps.config.google.saveUrlBase,
    now: deps.clock.now,
  });
}

/** What a saved object must show after a change: the balance and the level/progress modules. */
export function googleObjectPatch(content: PassContent): Partial<LoyaltyObject> {
  return loyaltyObjectUpdate({ points: { label: content.balance.label, balance: content.balance.google }, fields: textModules(content) });
}
