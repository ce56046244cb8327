import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { liftCounterPause, type PausedCounter } from '../../counter/unlock';
import { field } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { when } from '../widgets';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { sayMarkup } from '../say';

// Counters paused after too many wrong PINs (counter/unlock.ts): the owner sees which, and lifts
// a pause at once instead of the staff waiting it out. The PIN screen of a paused device shows the
// same device label the list does. An address or shop-wide pause stops only devices new to the
// counter: the shop's own tablets keep unlocking.

const PAUSE_FIELD = 'pause';
/** A pause as its form names it: `device:AB12CD`, `address:203.0.113.9`, `shop`. */
const pauseValue = (p: PausedCounter) => (p.kind === 'shop' ? 'shop' : `${p.kind}:${p.label}`);

function readPause(value: string): Pick<PausedCounter, 'kind' | 'label'> | undefined {
  if (value === 'shop') return { kind: 'shop', label: null };
  const colon = value.indexOf(':');
  const kind = value.slice(0, colon);
  return colon > 0 && (kind === 'device' || kind === 'address') ? { kind, label: value.slice(colon + 1) } : undefined;
}

function what(p: PausedCounter, lang: ConsoleLang): { text: Markup; name: string } {
  const label = html`<strong>${p.label ?? ''}</strong>`;
  if (p.kind === 'device') return { text: sayMarkup(lang, 'console.pauses.device', { label }), name: tConsole(lang, 'console.pauses.deviceName', { label: p.label ?? '' }) };
  if (p.kind === 'address') return { text: sayMarkup(lang, 'console.pauses.address', { label }), name: tConsole(lang, 'console.pauses.addressName', { label: p.label ?? '' }) };
  return { text: html`<strong>${tConsole(lang, 'console.pauses.shop')}</strong>`, name: tConsole(lang, 'console.pauses.shopName') };
}

export function pausesPanel(c: ConsoleContext, paused: PausedCounter[], timeZone: string): Markup {
  if (paused.length === 0) return html``;
  return html`<section class="panel notice warn" id="paused-counters" aria-labelledby="paused-heading">
  <h2 id="paused-heading">${tConsole(c.lang, 'console.pauses.title')}</h2>
  <p>${tConsole(c.lang, 'console.pauses.intro')}</p>
  <ul class="paused-list">${paused.map((p) => {
    const { text, name } = what(p, c.lang);
    return html`<li><form method="post" action="/console/staff/counter-pause" class="row">${csrfField(c)}<input type="hidden" name="${PAUSE_FIELD}" value="${pauseValue(p)}">
      <span>${sayMarkup(c.lang, 'console.pauses.until', { what: text, until: when(p.until, timeZone, {}, c.lang) })}</span>
      <button type="submit" class="secondary">${tConsole(c.lang, 'console.pauses.lift')}<span class="visually-hidden"> ${name}</span></button></form></li>`;
  })}</ul>
</section>`;
}

export function bindCounterPauses(router: Router, deps: AppDeps): void {
  router.post('/console/staff/counter-pause', (ctx) => {
    const c = consoleOf(ctx);
    const pause = readPause(field(consoleForm(ctx), PAUSE_FIELD));
    const lifted = pause !== undefined && liftCounterPause(deps, c.org.id, pause);
    ctx.status = 303;
    ctx.redirect(`/console/staff?pause=${lifted ? 'lifted' : 'gone'}`);
  });
}

export const PAUSE_NOTICES: Record<string, ConsoleKey> = {
  lifted: 'console.pauses.lifted',
  gone: 'console.pauses.gone',
};
