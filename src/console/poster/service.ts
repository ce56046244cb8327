import QRCode from 'qrcode';
import type { Card } from '../../cards/model';
import { findCard } from '../../cards/service';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { ApiError } from '../../lib/errors';
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
export function posterCard(db: Db, orgId: string, cardId: string): Card {
  const card = findCard({ db }, cardId);
  if (!card || card.orgId !== orgId) throw new ApiError(404, 'CARD_NOT_FOUND', { exactMessage: 'There is no such card in your business.' });
  return card;
}

/** Only a card with data collection has a sign-up form for the poster to lead to. */
export function assertSignupOpen(card: Card): void {
  if (!card.dataCollectionEnabled) {
    throw new ApiError(409, 'SIGNUP_OFF', { exactMessage: `Online sign-up is off for ${card.name}, so there is no sign-up link to print. Turn on data collection for the card first.` });
  }
}

export const posterLink = (config: Pick<Config, 'installBaseUrl'>, card: Card) => signupUrl(config, card.id);

/** A poster worth printing leads phones somewhere: its link is not this computer's own address. */
export const printablePoster = (link: string): boolean => addressProblem(link) !== 'loopback';

/**
 * The owner says the poster is printed: the start checklist's step. Only for a poster that works
 * on paper, one whose code leads phones to the sign-up form; opening the page is not printing it.
 */
export function markPosterPrinted(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, orgId: string, card: Card): void {
  assertSignupOpen(card);
  if (card.archivedAt !== null) throw new ApiError(409, 'CARD_ARCHIVED', { exactMessage: `${card.name} is archived: it takes no new members, so there is no poster to print.` });
  if (!printablePoster(posterLink(deps.config, card))) {
    throw new ApiError(409, 'ADDRESS_NOT_PUBLIC', {
      exactMessage: "This poster's code leads to this computer, so phones cannot follow it. Set PUBLIC_URL to the address customers' phones reach, print the poster again, then mark it printed.",
    });
  }
  noteStarted(deps, orgId, 'posterPrintedAt');
}

/** For the poster page: sized by its CSS, labelled for screen readers. */
export async function posterQrSvg(url: string): Promise<string> {
  const svg = await QRCode.toString(url, { ...OPTIONS, type: 'svg', margin: 0 });
  return svg.trim().replace('<svg ', '<svg role="img" aria-label="QR code of the sign-up link" ');
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
