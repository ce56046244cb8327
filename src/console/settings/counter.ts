import { inTransaction } from '../../db/transaction';
import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps';
import { readOrgSettings, writeOrgSettings, type OrgSettings } from '../../orgs/settings';
import { inputField } from '../../web/fields';
import { field, parseForm, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { consoleForm, consoleOf } from '../context';
import { csrfField } from '../layout';
import { fromHundredths, toHundredths } from '../../lib/money';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

// The counter's panel of the settings page: when the counter locks, and the owner's
// caps on awards per staff member and per customer per day (blank: no cap). The counter enforces
// the caps; the dashboard flags days that reach them.

export interface CounterSettingsView {
  lockAfterMinutes: string;
  staffDailyAwardCap: string;
  customerDailyAwardCap: string;
  confirmStamps: string;
  confirmPoints: string;
  confirmCredit: string;
  errors?: FormErrors;
  saved?: boolean;
}

const inRange = (text: string, min: number, max: number) => /^\d{1,6}$/.test(text) && Number(text) >= min && Number(text) <= max;
/** The counter form, its messages in the admin's language. */
function counterForm(lang: ConsoleLang) {
  const whole = (min: number, max: number, message: string) => v.pipe(v.string(), v.trim(), v.check((t) => inRange(t, min, max), message), v.transform(Number));
  /** Empty is "no cap" (null). */
  const cap = (max: number) =>
    v.pipe(
      v.string(),
      v.trim(),
      v.check((t) => t === '' || inRange(t, 1, max), tConsole(lang, 'console.counterSettings.capInvalid', { max })),
      v.transform((t) => (t === '' ? null : Number(t))),
    );
  /** An amount in units as typed ("10", "150.50" for credit) → hundredths. */
  const confirmAmount = (decimals: boolean, example: string) =>
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (t) => (decimals ? /^\d{1,6}([.,]\d{1,2})?$/ : /^\d{1,6}$/).test(t) && Number(t.replace(',', '.')) >= 1,
        tConsole(lang, decimals ? 'console.counterSettings.amountInvalid' : 'console.counterSettings.wholeInvalid', { example }),
      ),
      v.transform((t) => toHundredths(Number(t.replace(',', '.')))),
    );
  return v.object({
    lockAfterMinutes: whole(1, 240, tConsole(lang, 'console.counterSettings.lockInvalid')),
    staffDailyAwardCap: cap(100_000),
    customerDailyAwardCap: cap(1_000),
    confirmStamps: confirmAmount(false, '10'),
    confirmPoints: confirmAmount(false, '1000'),
    confirmCredit: confirmAmount(true, lang === 'de' ? '200,00' : '200'),
  });
}
const COUNTER_FORMS = { en: counterForm('en'), de: counterForm('de') } satisfies Record<ConsoleLang, unknown>;

const units = (hundredths: number) => String(fromHundredths(hundredths));

export function counterSettingsView(settings: OrgSettings, saved = false): CounterSettingsView {
  const { lockAfterMinutes, staffDailyAwardCap, customerDailyAwardCap, confirmAbove } = settings.counter;
  return {
    lockAfterMinutes: String(lockAfterMinutes),
    staffDailyAwardCap: staffDailyAwardCap === null ? '' : String(staffDailyAwardCap),
    customerDailyAwardCap: customerDailyAwardCap === null ? '' : String(customerDailyAwardCap),
    confirmStamps: units(confirmAbove.stamps),
    confirmPoints: units(confirmAbove.points),
    confirmCredit: units(confirmAbove.credit),
    saved,
  };
}

export function counterSettingsPanel(c: ConsoleContext, view: CounterSettingsView): Markup {
  const say = (key: ConsoleKey) => tConsole(c.lang, key);
  const errors = view.errors ?? { fields: {} };
  return html`<form method="post" action="/console/settings/counter" class="form panel" id="counter-settings" aria-labelledby="counter-settings-heading" novalidate>
  ${csrfField(c)}
  <h2 id="counter-settings-heading">${say('console.counterSettings.title')}</h2>
  ${view.saved ? html`<div class="notice ok" role="status"><p>${say('console.counterSettings.saved')}</p></div>` : ''}
  ${inputField({ name: 'lockAfterMinutes', label: say('console.counterSettings.lock'), value: view.lockAfterMinutes, error: errors.fields.lockAfterMinutes, required: true, inputmode: 'numeric', hint: say('console.counterSettings.lockHint') })}
  ${inputField({ name: 'staffDailyAwardCap', label: say('console.counterSettings.staffCap'), value: view.staffDailyAwardCap, error: errors.fields.staffDailyAwardCap, inputmode: 'numeric', hint: say('console.counterSettings.staffCapHint') })}
  ${inputField({ name: 'customerDailyAwardCap', label: say('console.counterSettings.customerCap'), value: view.customerDailyAwardCap, error: errors.fields.customerDailyAwardCap, inputmode: 'numeric', hint: say('console.counterSettings.customerCapHint') })}
  <fieldset class="choices">
    <legend>${say('console.counterSettings.confirmAbove')}</legend>
    <p class="hint muted small">${say('console.counterSettings.confirmHint')}</p>
    <div class="row-fields three">
      ${inputField({ name: 'confirmStamps', label: say('console.counterSettings.stamps'), value: view.confirmStamps, error: errors.fields.confirmStamps, required: true, inputmode: 'numeric' })}
      ${inputField({ name: 'confirmPoints', label: say('console.counterSettings.points'), value: view.confirmPoints, error: errors.fields.confirmPoints, required: true, inputmode: 'numeric' })}
      ${inputField({ name: 'confirmCredit', label: say('console.counterSettings.credit'), value: view.confirmCredit, error: errors.fields.confirmCredit, required: true, inputmode: 'decimal' })}
    </div>
  </fieldset>
  <div class="actions"><button type="submit">${say('console.counterSettings.save')}</button></div>
</form>`;
}

/** POST /console/settings/counter: `page` shows the settings page with this panel's view. */
export function bindCounterSettings(router: Router, deps: AppDeps, page: (ctx: Context, counter: CounterSettingsView, status: number) => void): void {
  router.post('/console/settings/counter', (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const typed = {
      lockAfterMinutes: field(form, 'lockAfterMinutes'),
      staffDailyAwardCap: field(form, 'staffDailyAwardCap'),
      customerDailyAwardCap: field(form, 'customerDailyAwardCap'),
      confirmStamps: field(form, 'confirmStamps'),
      confirmPoints: field(form, 'confirmPoints'),
      confirmCredit: field(form, 'confirmCredit'),
    };
    const parsed = parseForm(COUNTER_FORMS[c.lang], typed);
    if (!parsed.ok) return page(ctx, { ...typed, errors: parsed.errors }, 400);
    const { confirmStamps, confirmPoints, confirmCredit, ...caps } = parsed.value;
    inTransaction(deps.db, () =>
      writeOrgSettings(deps.db, c.org.id, { counter: { ...readOrgSettings(deps.db, c.org.id).counter, ...caps, confirmAbove: { stamps: confirmStamps, points: confirmPoints, credit: confirmCredit } } }),
    );
    ctx.status = 303;
    ctx.redirect('/console/settings?counterSaved=1#counter-settings');
  });
}
