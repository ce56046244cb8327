import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { liftCounterPause, type PausedCounter } from '../../counter/unlock';
import { field } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { when } from '../widgets';

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

function what(p: PausedCounter): { text: Markup; name: string } {
  if (p.kind === 'device') return { text: html`Device <strong>${p.label}</strong>`, name: `on device ${p.label}` };
  if (p.kind === 'address') return { text: html`New devices at the address <strong>${p.label}</strong>`, name: `at the address ${p.label}` };
  return { text: html`<strong>Every new device of the shop</strong>`, name: 'on every new device' };
}

export function pausesPanel(c: ConsoleContext, paused: PausedCounter[], timeZone: string): Markup {
  if (paused.length === 0) return html``;
  return html`<section class="panel notice warn" id="paused-counters" aria-labelledby="paused-heading">
  <h2 id="paused-heading">Paused counters</h2>
  <p>Unlocking was paused after too many wrong PINs. If it was one of your staff mistyping, lift the pause; if nobody at the shop was trying, leave it. A pause of new devices never stops the devices your staff use every day.</p>
  <ul class="paused-list">${paused.map((p) => {
    const { text, name } = what(p);
    return html`<li><form method="post" action="/console/staff/counter-pause" class="row">${csrfField(c)}<input type="hidden" name="${PAUSE_FIELD}" value="${pauseValue(p)}">
      <span>${text}, paused until ${when(p.until, timeZone)}</span>
      <button type="submit" class="secondary">Lift the pause<span class="visually-hidden"> ${name}</span></button></form></li>`;
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

export const PAUSE_NOTICES: Record<string, string> = {
  lifted: 'The pause is lifted: staff can unlock that counter with their PIN now.',
  gone: 'That pause had already ended.',
};
