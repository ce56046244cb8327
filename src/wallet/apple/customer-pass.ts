// One customer's signed Apple pass, as served by the install page and by the web service.
import { inTransaction } from '../../db/transaction';
import type { Card } from '../../cards/model';
import type { Config } from '../../config';
import type { Customer } from '../../customers/model';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import { t } from '../../i18n/translate';
import { randomToken } from '../../lib/ids';
import { orgsRepo } from '../../orgs/repo';
import { cardsRepo } from '../../cards/repo';
import { appleLogoImages, cardBackground } from '../logo-images';
import { walletRepo } from '../repo';
import type { AppleCredentials } from './credentials';
import { APPLE_FRONT_FIELDS, buildApplePass, type ApplePassInput } from './pass-builder';
import { customerPassContent } from '../customer-content';
import type { PassContent } from '../pass-content';

export interface PassDeps {
  db: Db;
  clock: Clock;
  config: Readonly<Config>;
}

/** Devices append /v1/... to this. */
export const webServiceUrl = (config: Readonly<Config>) => `${config.publicUrl}/wallet`;

/** The pass's ApplePass token: 32 random base62 characters, made once and then kept forever. */
export function passAuthToken(deps: PassDeps, customerId: string): string {
  return inTransaction(deps.db, () => walletRepo(deps.db).ensureAuthToken(customerId, randomToken(32), deps.clock.now()));
}

/** When what the pass shows last changed: the customer's data or the card's design and name. */
export function passModifiedAt(card: Card, customer: Customer): number {
  return Math.max(customer.passUpdatedAt, card.updatedAt);
}

export function organizationName(db: Db, card: Card): string {
  return orgsRepo(db).findOrg(card.orgId)?.name ?? card.name;
}

/**
 * The pass's lines on the storeCard: its front holds four (two secondary, two auxiliary), in the
 * order of importance the content gives; any further ones go on the back, where nothing is cut,
 * before the member's name.
 */
export function appleFields(content: Pick<PassContent, 'details' | 'holderName' | 'lang'>): Pick<ApplePassInput, 'fields' | 'backFields'> {
  return {
    fields: content.details.slice(0, APPLE_FRONT_FIELDS),
    backFields: [...content.details.slice(APPLE_FRONT_FIELDS), ...(content.holderName ? [{ key: 'holder', label: t(content.lang, 'pass.member'), value: content.holderName }] : [])],
  };
}

export async function buildCustomerApplePass(deps: PassDeps, apple: AppleCredentials, card: Card, customer: Customer): Promise<Buffer> {
  const content = customerPassContent(deps.db, card, customer);
  const design = card.design ?? {};
  const logo = cardsRepo(deps.db).logoOf(card.id);
  return buildApplePass(
    {
      // The passUserId: stable for the customer's life, and what the web service looks up.
      serialNumber: customer.id,
      authenticationToken: passAuthToken(deps, customer.id),
      webServiceURL: webServiceUrl(deps.config),
      organizationName: content.organizationName,
      description: t(content.lang, 'pass.description', { card: content.cardName }),
      cardName: content.cardName,
      testMode: content.testMode,
      balance: { label: content.balance.label, value: content.balance.appleValue, changeMessage: content.balance.changeMessage },
      ...appleFields(content),
      barcodeMessage: content.scanCode,
      barcodeAltText: content.scanCode,
      colors: {
        ...(design.backgroundColor ? { background: design.backgroundColor } : {}),
        ...(design.foregroundColor ? { foreground: design.foregroundColor } : {}),
        ...(design.labelColor ? { label: design.labelColor } : {}),
      },
      ...(design.logoText ? { logoText: design.logoText } : {}),
      ...(logo ? { images: appleLogoImages(logo, cardBackground(card)) } : {}),
      voided: content.voided,
    },
    apple,
  );
}
