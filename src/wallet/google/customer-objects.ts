// One customer's Google Wallet loyalty object and its card's class, the save link that carries
// both, and the PATCH body that follows a balance change.
import { inTransaction } from '../../db/transaction';
import type { Card } from '../../cards/model';
import { cardsRepo } from '../../cards/repo';
import { logoVersion } from '../logo-images';
import type { Customer } from '../../customers/model';
import { organizationName, type PassDeps } from '../apple/customer-pass';
import type { PassContent } from '../pass-content';
import { walletRepo } from '../repo';
import type { GoogleWallet } from '../services';
import { DEFAULT_PASS_COLORS } from '../apple/pass-builder';
import { buildLoyaltyClass, buildLoyaltyObject, loyaltyObjectUpdate, walletResourceId, type LoyaltyClass, type LoyaltyClassPatch, type LoyaltyObject, type TextModule } from './objects';
import { buildSaveLink } from './save-link';
import { customerPassContent } from '../customer-content';
import { t } from '../../i18n/translate';

/**
 * Test customers get a class of their own: the class carries the program name, and theirs says
 * "TEST · …". Card ids never contain "-", so "<cardId>-test" cannot meet a real card.
 */
export function googleIds(issuerId: string, card: Card, customer: Customer): { classId: string; objectId: string } {
  return { classId: googleClassId(issuerId, card, customer.livemode), objectId: walletResourceId(issuerId, customer.id) };
}

export const googleClassId = (issuerId: string, card: Card, livemode: boolean) => walletResourceId(issuerId, livemode ? card.id : `${card.id}-test`);

/**
 * The card's class (live or test) as it is now: what a save link carries, and what a card change
 * patches, so the two never disagree. A card without a background colour shows the pass default
 * on Google too, as on the Apple and web passes.
 */
export function cardLoyaltyClass(deps: Pick<PassDeps, 'db' | 'config'>, issuerId: string, card: Card, livemode: boolean): LoyaltyClass {
  return buildLoyaltyClass({
    id: googleClassId(issuerId, card, livemode),
    issuerName: organizationName(deps.db, card),
    programName: card.name,
    programLogoUrl: currentCardLogoUrl(deps, card),
    testMode: !livemode,
    backgroundColor: card.design?.backgroundColor ?? DEFAULT_PASS_COLORS.background,
    callbackUrl: googleCallbackUrl(deps.config.publicUrl),
  });
}

/** The fields of the class a card change may move, for a PATCH (nothing else is overwritten). */
export function cardClassPatch(loyaltyClass: LoyaltyClass): LoyaltyClassPatch {
  const { issuerName, programName, programLogo, hexBackgroundColor } = loyaltyClass;
  return { issuerName, programName, programLogo, hexBackgroundColor: hexBackgroundColor! };
}

/**
 * Where Google fetches the class logo (a public URL is required by the API). Google keeps the image
 * it fetched: the version names the logo, so a new one has a new address.
 */
export const cardLogoUrl = (publicUrl: string, cardId: string, version: string) => `${publicUrl}/wallet/cards/${encodeURIComponent(cardId)}/logo.png?v=${version}`;

/** The class logo's URL for the card as it is now. */
export const currentCardLogoUrl = (deps: Pick<PassDeps, 'db' | 'config'>, card: Card) =>
  cardLogoUrl(deps.config.publicUrl, card.id, logoVersion(card, cardsRepo(deps.db).logoMeta(card.id)));
export const googleCallbackUrl = (publicUrl: string) => `${publicUrl}/wallet/google/callback`;

const textModules = (content: PassContent): TextModule[] => content.details.map((d) => ({ id: d.key, header: d.label, body: d.value }));

/**
 * The "Add to Google Wallet" link. Records the object first (one small write), so the worker
 * knows this object may exist at Google and the callback can find its customer.
 */
export function issueGoogleSaveLink(deps: PassDeps, google: GoogleWallet, card: Card, customer: Customer): string {
  const { classId, objectId } = googleIds(google.issuerId, card, customer);
  const content = customerPassContent(deps.db, card, customer);
  inTransaction(deps.db, () => walletRepo(deps.db).recordGoogleLink({ customerId: customer.id, objectId, classId }, deps.clock.now()));

  const { publicUrl, installBaseUrl } = deps.config;
  const loyaltyClass = cardLoyaltyClass(deps, google.issuerId, card, customer.livemode);
  const loyaltyObject: LoyaltyObject = buildLoyaltyObject({
    id: objectId,
    classId,
    accountId: content.scanCode,
    accountName: content.holderName ?? t(content.lang, 'pass.member'),
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
  return loyaltyObjectUpdate({
    points: { label: content.balance.label, balance: content.balance.google },
    fields: textModules(content),
    ...(content.voided ? { voided: { accountName: t(content.lang, 'pass.member') } } : {}),
  });
}
