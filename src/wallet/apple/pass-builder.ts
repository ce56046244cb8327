// Builds one customer's signed Apple Wallet storeCard (.pkpass) from plain values. No database,
// no HTTP: the caller gathers card design, customer and balance, this returns the bytes.
import type { AppleCredentials } from './credentials';
import { parseColor } from '../../lib/colors';
import { passDisplayName } from '../test-mode';
import { defaultPassImages } from './default-images';

export interface ApplePassField {
  key: string;
  label: string;
  value: string | number;
  /** Lock-screen notice when the value changes; must contain "%@" (the new value). */
  changeMessage?: string;
}

export interface ApplePassInput {
  /** Never changes for a customer's pass: devices key updates on it. */
  serialNumber: string;
  /** ≥ 16 characters; never changes for a pass (devices authenticate with it). */
  authenticationToken: string;
  /** Base of the pass web service; devices append /v1/... */
  webServiceURL: string;
  organizationName: string;
  description: string;
  cardName: string;
  testMode: boolean;
  balance: { label: string; value: number | string; changeMessage: string };
  /** Level, reward progress...: first two become secondary fields, the rest auxiliary (max 4). */
  fields: ApplePassField[];
  backFields?: ApplePassField[];
  /** The customer's scan code, shown as a QR code. */
  barcodeMessage: string;
  barcodeAltText?: string;
  /** "rgb(r, g, b)" or "#rrggbb". */
  colors?: { background?: string; foreground?: string; label?: string };
  /** Text beside the logo; defaults to cardName. */
  logoText?: string;
  /** The card's own logo.png (and icon.png) families; the mark drawn in the card's colours otherwise. */
  images?: { logo: Readonly<Record<string, Buffer>>; icon?: Readonly<Record<string, Buffer>> };
  /** Wallet shows the pass as void (the customer's data was erased). */
  voided?: boolean;
}

export type ApplePassSigner = Pick<
  AppleCredentials,
  'passTypeId' | 'teamId' | 'signerCert' | 'signerKey' | 'signerKeyPassphrase' | 'wwdr'
>;

export const DEFAULT_PASS_COLORS = {
  background: 'rgb(34, 40, 49)',
  foreground: 'rgb(255, 255, 255)',
  label: 'rgb(190, 196, 204)',
} as const;

/** The storeCard front: secondary and auxiliary fields together. */
export const APPLE_FRONT_FIELDS = 4;

/** Returns the signed .pkpass (a zip). Throws on input Wallet would refuse or show wrongly. */
export async function buildApplePass(input: ApplePassInput, creds: ApplePassSigner): Promise<Buffer> {
  validate(input);
  const background = parseColor(input.colors?.background ?? DEFAULT_PASS_COLORS.background, 'buildApplePass: background');
  const foreground = parseColor(input.colors?.foreground ?? DEFAULT_PASS_COLORS.foreground, 'buildApplePass: foreground');
  const label = parseColor(input.colors?.label ?? DEFAULT_PASS_COLORS.label, 'buildApplePass: label');

  // Loaded at the first pass, not at start: passkit-generator and the joi it validates with are a
  // third of a megabyte of code a server without Apple Wallet never runs (smaller heap, faster start).
  const { PKPass, PassType } = await import('passkit-generator');
  // The card's uploaded logo where it has one; otherwise the default mark, drawn in its colours.
  const drawn = defaultPassImages({ background: background.rgb, foreground: foreground.rgb });
  const pass = new PKPass(
    { ...(input.images?.icon ?? drawn.icon), ...(input.images?.logo ?? drawn.logo) },
    {
      signerCert: creds.signerCert,
      signerKey: creds.signerKey,
      wwdr: creds.wwdr,
      ...(creds.signerKeyPassphrase !== undefined ? { signerKeyPassphrase: creds.signerKeyPassphrase } : {}),
    },
    {
      formatVersion: 1,
      passTypeIdentifier: creds.passTypeId,
      teamIdentifier: creds.teamId,
      serialNumber: input.serialNumber,
      authenticationToken: input.authenticationToken,
      // Devices append /v1/...; a trailing slash would give them //v1/...
      webServiceURL: input.webServiceURL.replace(/\/+$/, ''),
      organizationName: input.organizationName,
      description: passDisplayName(input.description, input.testMode),
      logoText: passDisplayName(input.logoText ?? input.cardName, input.testMode),
      backgroundColor: background.css,
      foregroundColor: foreground.css,
      labelColor: label.css,
      // One card per customer: sharing it would let someone else collect on their account.
      sharingProhibited: true,
      ...(input.voided ? { voided: true } : {}),
    },
  );

  const storeCard = new PassType('storeCard');
  storeCard.primaryFields.push({
    key: 'balance',
    label: input.balance.label,
    value: input.balance.value,
    changeMessage: input.balance.changeMessage,
  });
  input.fields.forEach((field, i) => (i < 2 ? storeCard.secondaryFields : storeCard.auxiliaryFields).push(toField(field)));
  for (const field of input.backFields ?? []) storeCard.backFields.push(toField(field));
  pass.types.push(storeCard);

  pass.setBarcodes({
    format: 'PKBarcodeFormatQR',
    message: input.barcodeMessage,
    // Latin-1 is what scanners expect; anything beyond it needs UTF-8 to survive.
    messageEncoding: /^[\x00-\xff]*$/.test(input.barcodeMessage) ? 'iso-8859-1' : 'utf-8',
    ...(input.barcodeAltText !== undefined ? { altText: input.barcodeAltText } : {}),
  });

  return pass.getAsBuffer();
}

function toField(field: ApplePassField) {
  return {
    key: field.key,
    label: field.label,
    value: field.value,
    ...(field.changeMessage !== undefined ? { changeMessage: field.changeMessage } : {}),
  };
}

// passkit-generator drops some invalid values with a console warning (barcodes, pass.json) or
// reports them as Joi errors; checking here gives the caller a plain reason instead.
function validate(input: ApplePassInput): void {
  const fail = (why: string): never => {
    throw new Error(`buildApplePass: ${why}`);
  };
  if (!input.serialNumber) fail('serialNumber is empty');
  if (input.authenticationToken.length < 16) fail('authenticationToken must have at least 16 characters');
  if (!/^https?:\/\/[^\s/]+/.test(input.webServiceURL)) fail('webServiceURL must be an http(s) URL');
  if (!input.organizationName || !input.description || !input.cardName) fail('organizationName, description and cardName are required');
  if (!input.balance.changeMessage.includes('%@')) fail('balance.changeMessage must contain %@');
  if (input.fields.length > APPLE_FRONT_FIELDS) fail(`at most ${APPLE_FRONT_FIELDS} secondary/auxiliary fields fit a store card`);
  for (const field of [...input.fields, ...(input.backFields ?? [])]) {
    if (field.changeMessage !== undefined && !field.changeMessage.includes('%@')) fail(`changeMessage of field "${field.key}" must contain %@`);
  }
  if (!input.barcodeMessage) fail('barcodeMessage is empty');
}
