import QRCode from 'qrcode';
import type { Card } from '../../cards/model';
import { findCard } from '../../cards/service';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { ApiError, inWords } from '../../lib/errors';
import { noteStarted } from '../../orgs/service';
import type { AppDeps } from '../../deps';
import { signupUrl } from '../../customer-pages/signup/service';
import { addressProblem } from '../public-address';

// The counter poster's QR code: the card's sign-up link, drawn by `qrcode` as SVG (on
// the poster itself, and as a download for print shops) and PNG (for anything else). Level M
// survives a smudge or a reflection; four modules of quiet zone, as the QR standard asks, on the
// downloads (the poster draws its own white frame).

const OPTIONS = { errorCorrectionLevel: 'M' } as const;

/** A card of this org (another org's card is "not found", never "forbidden": its existence is not ours to confirm). */
export function posterCard(db: Db, orgId: string, cardId: string, lang: ConsoleLang = 'en'): Card {
  const card = findCard({ db }, cardId);
  if (!card || card.orgId !== orgId) throw inWords(new ApiError(404, 'CARD_NOT_FOUND', { exactMessage: tConsole(lang, 'console.poster.error.noCard') }));
  return card;
}

/** Only a card with data collection has a sign-up form for the poster to lead to. */
export function assertSignupOpen(card: Card, lang: ConsoleLang = 'en'): void {
  if (!card.dataCollectionEnabled) {
    throw inWords(new ApiError(409, 'SIGNUP_OFF', { exactMessage: tConsole(lang, 'console.poster.error.signupOff', { card: card.name }) }));
  }
}

export const posterLink = (config: Pick<Config, 'installBaseUrl'>, card: Card) => signupUrl(config, card.id);

/** A poster worth printing leads phones somewhere: its link is not this computer's own address. */
export const printablePoster = (link: string): boolean => addressProblem(link) !== 'loopback';

/**
 * The owner says the poster is printed: the start checklist's step. Only for a poster that works
 * on paper, one whose code leads phones to the sign-up form; opening the page is not printing it.
 */
export function markPosterPrinted(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, orgId: string, card: Card, lang: ConsoleLang = 'en'): void {
  assertSignupOpen(card, lang);
  if (card.archivedAt !== null) throw inWords(new ApiError(409, 'CARD_ARCHIVED', { exactMessage: tConsole(lang, 'console.poster.error.archived', { card: card.name }) }));
  if (!printablePoster(posterLink(deps.config, card))) {
    throw inWords(new ApiError(409, 'ADDRESS_NOT_PUBLIC', { exactMessage: tConsole(lang, 'console.poster.error.notPublic') }));
  }
  noteStarted(deps, orgId, 'posterPrintedAt');
}

/** For the poster page: sized by its CSS, labelled for screen readers. */
export async function posterQrSvg(url: string, lang: ConsoleLang = 'en'): Promise<string> {
  const svg = await QRCode.toString(url, { ...OPTIONS, type: 'svg', margin: 0 });
  const label = tConsole(lang, 'console.poster.qrLabel').replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return svg.trim().replace('<svg ', `<svg role="img" aria-label="${label}" `);
}

export function downloadSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: 'svg', margin: 4, width: 1024 });
}

export function downloadPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: 'png', margin: 4, width: 1024 });
}

/** "Coffee stamps" → "Coffee-stamps-sign-up-QR": ASCII only, safe in a Content-Disposition header. */
export function downloadName(card: Card, ext: 'png' | 'svg'): string {
  const base = card.name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'card';
  return `${base}-sign-up-QR.${ext}`;
}
