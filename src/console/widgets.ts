import { formatDate } from '../i18n/format';
import { localeOf, type ConsoleLang } from '../i18n/langs';
import { tConsole } from '../i18n/translate';
import { localDateTime } from '../lib/days';
import { html, type Markup } from '../web/html';

// Pieces the console's API keys, webhooks and staff pages share.

/**
 * A secret the admin sees once (a new API key, a webhook signing secret): rendered in the answer to
 * the POST that made it, never in a URL or a redirect. The answer is no-store like every console
 * page (web/page.ts), so neither the browser's cache nor a proxy keeps it. The value sits in a
 * read-only text area (wrapped, so all of it is readable on a phone) that can be selected and copied by hand without JavaScript; console.js adds a
 * working "Copy" button (client/copy.ts).
 */
export function shownOnce(o: { id: string; label: string; value: string; warning: string; lang?: ConsoleLang }): Markup {
  const lang = o.lang ?? 'en';
  return html`<div class="field shown-once">
  <label for="${o.id}">${o.label}</label>
  <div class="secret">
    <textarea id="${o.id}" class="secret-value mono" rows="2" readonly autocomplete="off" spellcheck="false" aria-describedby="${o.id}-warning">${o.value}</textarea>
    <button type="button" class="button secondary copy-button" data-copy="${o.id}" data-copied="${tConsole(lang, 'console.widgets.copied')}" data-copy-failed="${tConsole(lang, 'console.widgets.copyFailed')}">${tConsole(lang, 'console.widgets.copy')}</button>
  </div>
  <span class="copy-status" data-copy-status="${o.id}" role="status" aria-live="polite"></span>
  <p class="notice warn" id="${o.id}-warning"><strong>${tConsole(lang, 'console.widgets.shownOnce')}</strong> ${o.warning}</p>
</div>`;
}

/**
 * A value the admin copies into another system (a card's id for an integrator's code): a read-only
 * field that can be selected by hand, and console.js's "Copy" button (client/copy.ts) beside it.
 */
export function copyField(o: { id: string; label: string; value: string; hint?: string; lang?: ConsoleLang }): Markup {
  const lang = o.lang ?? 'en';
  return html`<div class="copy-field">
  <label for="${o.id}">${o.label}</label>
  <span class="copy-field-value">
    <input id="${o.id}" type="text" class="mono" value="${o.value}" readonly autocomplete="off" spellcheck="false" size="${o.value.length + 2}"${o.hint ? html` aria-describedby="${o.id}-hint"` : ''}>
    <button type="button" class="button secondary small-button copy-button" data-copy="${o.id}" data-copied="${tConsole(lang, 'console.widgets.copied')}" data-copy-failed="${tConsole(lang, 'console.widgets.copyFailed')}">${tConsole(lang, 'console.widgets.copy')}</button>
  </span>
  <span class="copy-status" data-copy-status="${o.id}" role="status" aria-live="polite"></span>
  ${o.hint ? html`<span class="hint muted small" id="${o.id}-hint">${o.hint}</span>` : ''}
</div>`;
}

export interface Choice {
  value: string;
  label: string | Markup;
  hint?: string;
}

/**
 * Radio buttons or checkboxes under one legend, with the group's error: every option has its own
 * visible label, so a person (and a test) picks "Test" or "cards:read" by its words.
 */
export function choiceGroup(o: { name: string; legend: string; type: 'radio' | 'checkbox'; choices: Choice[]; checked: readonly string[]; error?: string; hint?: string }): Markup {
  const base = `f-${o.name}`;
  const described = [o.hint ? `${base}-hint` : '', o.error ? `${base}-error` : ''].filter(Boolean).join(' ');
  return html`<fieldset class="choices" id="${base}"${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}>
  <legend>${o.legend}</legend>
  ${o.hint ? html`<p class="hint muted small" id="${base}-hint">${o.hint}</p>` : ''}
  ${o.choices.map((choice, i) => {
    const id = `${base}-${i}`;
    return html`<label class="check" for="${id}"><input id="${id}" type="${o.type}" name="${o.name}" value="${choice.value}"${o.checked.includes(choice.value) ? html` checked` : ''}>
    <span>${choice.label}${choice.hint ? html`<span class="hint muted small">${choice.hint}</span>` : ''}</span></label>`;
  })}
  ${o.error ? html`<p class="error" id="${base}-error">${o.error}</p>` : ''}
</fieldset>`;
}

const withSeconds = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant on the shop's clock (orgs/settings.ts timeZone), as a <time> element carrying the
 * exact instant. English keeps the sortable "2026-05-14 09:30" of tables and logs; German reads
 * "14. Mai 2026, 09:30", as a German shop writes it.
 */
export function when(ms: number, timeZone: string, options: { seconds?: boolean } = {}, lang: ConsoleLang = 'en'): Markup {
  let text: string;
  if (lang === 'en') text = localDateTime(ms, timeZone, options);
  else if (!options.seconds) text = formatDate(lang, timeZone, ms, 'dateTime');
  else {
    const key = `${lang}|${timeZone}`;
    let f = withSeconds.get(key);
    if (!f) withSeconds.set(key, (f = new Intl.DateTimeFormat(localeOf(lang), { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })));
    text = f.format(ms);
  }
  return html`<time datetime="${new Date(ms).toISOString()}">${text}</time>`;
}

/** A notice that says a write went through (after the redirect of PRG). */
export function doneNotice(message: string | undefined): Markup {
  return message ? html`<div class="notice ok" role="status"><p>${message}</p></div>` : html``;
}
