// Builds one customer's signed Apple Wallet storeCard (.pkpass) from plain values. No database,
// no HTTP: the caller gathers card design, customer and balance, this returns the bytes.
import { PKPass, PassType } from 'passkit-generator';
import type { AppleCredentials } from './credentials';
import { parseColor, type Rgb } from '../../lib/colors';
import { TEST_MODE_PREFIX } from '../test-mode';
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
  balance: { label: string; value: number | string; changeMessage: string; currencyCode?: string };
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
  /** PNG files from the card's design; a missing family falls back to the drawn default. */
  images?: { icon?: Buffer; icon2x?: Buffer; logo?: Buffer; logo2x?: Buffer; strip?: Buffer; strip2x?: Buffer };
  /** Marks the pass as no longer valid (customer deleted, card retired). */
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

const MAX_FRONT_FIELDS = 4; // storeCard: secondary + auxiliary together
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Returns the signed .pkpass (a zip). Throws on input Wallet would refuse or show wrongly. */
export async function buildApplePass(input: ApplePassInput, creds: ApplePassSigner): Promise<Buffer> {
  validate(input);
  const background = parseColor(input.colors?.background ?? DEFAULT_PASS_COLORS.background, 'buildApplePass: background');
  const foreground = parseColor(input.colors?.foreground ?? DEFAULT_PASS_COLORS.foreground, 'buildApplePass: foreground');
  const label = parseColor(input.colors?.label ?? DEFAULT_PASS_COLORS.label, 'buildApplePass: label');
  const prefix = input.testMode ? TEST_MODE_PREFIX : '';

  const pass = new PKPass(
    images(input, background.rgb, foreground.rgb),
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
      description: prefix + input.description,
      logoText: prefix + (input.logoText ?? input.cardName),
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
    ...(input.balance.currencyCode !== undefined ? { currencyCode: input.balance.currencyCode } : {}),
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
  if (input.fields.length > MAX_FRONT_FIELDS) fail(`at most ${MAX_FRONT_FIELDS} secondary/auxiliary fields fit a store card`);
  for (const field of [...input.fields, ...(input.backFields ?? [])]) {
    if (field.changeMessage !== undefined && !field.changeMessage.includes('%@')) fail(`changeMessage of field "${field.key}" must contain %@`);
  }
  if (!input.barcodeMessage) fail('barcodeMessage is empty');
  for (const [name, data] of Object.entries(input.images ?? {})) {
    if (data && !data.subarray(0, 8).equals(PNG_SIGNATURE)) fail(`image ${name} is not a PNG`);
  }
}

function images(input: ApplePassInput, background: Rgb, foreground: Rgb): Record<string, Buffer> {
  const given = input.images ?? {};
  const drawn = defaultPassImages({ background, foreground });
  // A family is taken whole from the design or whole from the default, never mixed.
  const family = (one: Buffer | undefined, two: Buffer | undefined, base: string, fallback: Record<string, Buffer>) =>
    one || two
      ? { ...(one ? { [`${base}.png`]: one } : {}), ...(two ? { [`${base}@2x.png`]: two } : {}) }
      : fallback;
  return {
    ...family(given.icon, given.icon2x, 'icon', drawn.icon),
    ...family(given.logo, given.logo2x, 'logo', drawn.logo),
    ...family(given.strip, given.strip2x, 'strip', {}),
  };
}
