import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { liftCounterPause, type PausedCounter } from '../../counter/session';
import { field, type FormFields } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleOf, type ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { when } from '../widgets';

// Counters paused after too many wrong PINs (counter/session.ts): the owner sees which, and lifts
// a pause at once instead of the staff waiting it out. The PIN screen of a paused device shows the
// same device label the list does.

export function pausesPanel(c: ConsoleContext, paused: PausedCounter[], timeZone: string): Markup {
  if (paused.length === 0) return html``;
  return html`<section class="panel notice warn" id="paused-counters" aria-labelledby="paused-heading">
  <h2 id="paused-heading">Paused counters</h2>
  <p>Unlocking was paused after too many wrong PINs. If it was one of your staff mistyping, lift the pause; if nobody at the shop was trying, leave it.</p>
  <ul class="paused-list">${paused.map(
    (p) => html`<li><form method="post" action="/console/staff/counter-pause" class="row">${csrfField(c)}<input type="hidden" name="device" value="${p.device ?? 'all'}">
      <span>${p.device ? html`Device <strong>${p.device}</strong>` : html`<strong>Every counter of the shop</strong>`}, paused until ${when(p.until, timeZone)}</span>
      <button type="submit" class="secondary">Lift the pause${p.device ? html`<span class="visually-hidden"> on device ${p.device}</span>` : html`<span class="visually-hidden"> on every counter</span>`}</button></form></li>`,
  )}</ul>
</section>`;
}

export function bindCounterPauses(router: Router, deps: AppDeps): void {
  router.post('/console/staff/counter-pause', (ctx) => {
    const c = consoleOf(ctx);
    const device = field(ctx.state.form as FormFields, 'device');
    const lifted = liftCounterPause(deps, c.org.id, device === 'all' ? null : device);
    ctx.status = 303;
    ctx.redirect(`/console/staff?pause=${lifted ? 'lifted' : 'gone'}`);
  });
}

export const PAUSE_NOTICES: Record<string, string> = {
  lifted: 'The pause is lifted: staff can unlock that counter with their PIN now.',
  gone: 'That pause had already ended.',
};
