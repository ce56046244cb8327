import type { Config } from '../../config';
import { html, type Markup } from '../../web/html';
import { formError, inputField, selectField } from '../../web/fields';
import { countryOfZone, phoneCountries, zoneChoices } from '../../lib/time-zones';
import { currencyChoices } from '../../i18n/currencies';
import { LANG_NAMES, LANGS, localeOf, type ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import type { FormErrors } from '../../web/forms';
import { APPLE_SETTINGS, GOOGLE_SETTINGS, type WalletServices } from '../../wallet/services';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { sayMarkup } from '../say';
import { signupPanel, type SignupPanelView } from './signup-panel';
import { settingsPage } from './subnav';

export interface SettingsView {
  name: string;
  brandColor: string;
  timeZone: string;
  /** '' for "the time zone's country". */
  country: string;
  language: string;
  /** '' for none: amounts without a currency sign. */
  currency: string;
  errors?: FormErrors;
  saved?: boolean;
  signup?: SignupPanelView;
}

const DAY = 86_400_000;

const countryLists = new Map<ConsoleLang, readonly { code: string; name: string }[]>();

/** The countries of the list, named and sorted in the admin's language ("Deutschland", "Österreich"). */
function countries(lang: ConsoleLang): readonly { code: string; name: string }[] {
  let list = countryLists.get(lang);
  if (!list) {
    if (lang === 'en') list = phoneCountries();
    else {
      const names = new Intl.DisplayNames(localeOf(lang), { type: 'region' });
      list = phoneCountries()
        .map((c) => ({ code: c.code, name: names.of(c.code) ?? c.name }))
        .sort((a, b) => a.name.localeCompare(b.name, localeOf(lang)));
    }
    countryLists.set(lang, list);
  }
  return list;
}

const zoneLists = new Map<ConsoleLang, readonly { zone: string; country: string }[]>();

/** The time zones with their countries named in the admin's language, so "Deutschland" finds Europe/Berlin. */
function zones(lang: ConsoleLang): readonly { zone: string; country: string }[] {
  let list = zoneLists.get(lang);
  if (!list) {
    if (lang === 'en') list = zoneChoices();
    else {
      const names = new Intl.DisplayNames(localeOf(lang), { type: 'region' });
      list = zoneChoices().map((z) => {
        const code = countryOfZone(z.zone);
        return { zone: z.zone, country: (code && names.of(code)) || z.country };
      });
    }
    zoneLists.set(lang, list);
  }
  return list;
}

/** The empty choice of the country list: what it stands for. */
function zoneCountry(timeZone: string, lang: ConsoleLang): string {
  const code = countryOfZone(timeZone);
  const name = code && countries(lang).find((c) => c.code === code)?.name;
  return name ? tConsole(lang, 'console.settings.zoneCountry', { country: name }) : tConsole(lang, 'console.settings.noCountry');
}

/**
 * The time zone: a text field that filters the list as the owner types (a <datalist>: "kolk" finds
 * Asia/Kolkata, "ukr" Europe/Kyiv by its country). console.js adds a button that fills in the
 * zone this browser is in.
 */
function timeZoneField(value: string, error: string | undefined, lang: ConsoleLang): Markup {
  return html`${inputField({ name: 'timeZone', label: tConsole(lang, 'console.settings.timeZone'), value, error, required: true, list: 'time-zones', autocomplete: 'off', hint: tConsole(lang, 'console.settings.timeZoneHint') })}
<datalist id="time-zones">${zones(lang).map((z) => html`<option value="${z.zone}">${z.country}</option>`)}</datalist>
<p class="browser-zone" data-browser-zone hidden><button type="button" class="secondary" data-use-zone>${tConsole(lang, 'console.settings.useDeviceZone')}</button> <span class="muted small" data-zone-name></span></p>`;
}

function settingList(names: readonly string[]): Markup {
  return html`${names.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`)}`;
}

function appleStatus(wallet: WalletServices, now: number, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const apple = wallet.apple;
  if (!apple) {
    return html`<p><span class="badge warn">${say('console.settings.off')}</span> ${sayMarkup(lang, 'console.settings.appleOff', { settings: settingList(APPLE_SETTINGS) })}</p>`;
  }
  const expires = apple.certificateNotAfter.getTime();
  const days = Math.floor((expires - now) / DAY);
  const state =
    days < 0
      ? html`<span class="badge danger">${say('console.settings.expired')}</span>`
      : days < 30
        ? html`<span class="badge warn">${say('console.settings.expiresIn', { days })}</span>`
        : html`<span class="badge ok">${say('console.settings.on')}</span>`;
  return html`<p>${state} ${say('console.settings.appleOn')}</p>
<dl class="facts">
  <dt>${say('console.settings.passType')}</dt><dd><code>${apple.passTypeId}</code></dd>
  <dt>${say('console.settings.team')}</dt><dd><code>${apple.teamId}</code></dd>
  <dt>${say('console.settings.certificateExpires')}</dt><dd>${new Date(expires).toISOString().slice(0, 10)}${days < 30 ? html` — ${say('console.settings.renew')}` : ''}</dd>
</dl>`;
}

function googleStatus(wallet: WalletServices, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const google = wallet.google;
  if (!google) {
    return html`<p><span class="badge warn">${say('console.settings.off')}</span> ${sayMarkup(lang, 'console.settings.googleOff', { settings: settingList(GOOGLE_SETTINGS) })}</p>`;
  }
  return html`<p><span class="badge ok">${say('console.settings.on')}</span> ${say('console.settings.googleOn')}</p>
<dl class="facts"><dt>${say('console.settings.issuer')}</dt><dd><code>${google.issuerId}</code></dd><dt>${say('console.settings.serviceAccount')}</dt><dd><code>${google.serviceAccount.clientEmail}</code></dd></dl>`;
}

/** The wallet's warning about PUBLIC_URL (wallet/services.ts, written for the server's log) as the admin reads it. */
function urlWarningText(warning: string, lang: ConsoleLang): string {
  if (lang === 'en') return warning;
  const address = /PUBLIC_URL (\S+) /.exec(warning)?.[1] ?? '';
  if (warning.includes('phones cannot reach')) return tConsole(lang, 'console.settings.urlUnreachable', { address });
  if (warning.includes('is not HTTPS')) return tConsole(lang, 'console.settings.urlNotHttps', { address });
  return warning;
}

/** The settings page: the business first, then the panels of other features (the counter's), the sign-up form, then what the operator set. */
export function settingsBody(
  c: ConsoleContext,
  view: SettingsView,
  server: { config: Readonly<Config>; wallet: WalletServices; urlWarning?: string; now: number },
  panels: Markup[] = [],
): Markup {
  const lang = c.lang;
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const errors = view.errors ?? { fields: {} };
  return settingsPage(
    '/console/settings',
    html`${view.saved ? html`<div class="notice ok" role="status"><p>${say('console.settings.saved')}</p></div>` : ''}
${formError(errors.form)}
<form method="post" action="/console/settings" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say('console.settings.business')}</h2>
  ${inputField({ name: 'name', label: say('console.settings.name'), value: view.name, error: errors.fields.name, required: true, maxlength: 100, hint: say('console.settings.nameHint') })}
  ${inputField({ name: 'brandColor', label: say('console.settings.brandColor'), type: 'color', value: view.brandColor, error: errors.fields.brandColor, required: true, hint: say('console.settings.brandColorHint') })}
  ${timeZoneField(view.timeZone, errors.fields.timeZone, lang)}
  ${selectField({
    name: 'country',
    label: say('console.settings.country'),
    value: view.country,
    error: errors.fields.country,
    placeholder: zoneCountry(view.timeZone, lang),
    options: countries(lang).map((c) => ({ value: c.code, label: c.name })),
    hint: say('console.settings.countryHint'),
  })}
  ${selectField({
    name: 'language',
    label: say('console.settings.language'),
    value: view.language,
    error: errors.fields.language,
    required: true,
    options: LANGS.map((l) => ({ value: l, label: LANG_NAMES[l] })),
    hint: say('console.settings.languageHint'),
  })}
  ${selectField({
    name: 'currency',
    label: say('console.settings.currency'),
    value: view.currency,
    error: errors.fields.currency,
    placeholder: say('console.settings.noCurrency'),
    options: currencyChoices(lang).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
    hint: say('console.settings.currencyHint'),
  })}
  <div class="actions"><button type="submit">${say('console.settings.save')}</button></div>
</form>
${panels}
${view.signup ? signupPanel(c, view.signup) : ''}
<section class="panel" aria-labelledby="wallet-heading">
  <h2 id="wallet-heading">${say('console.settings.wallet')}</h2>
  <p class="muted">${say('console.settings.walletIntro')}</p>
  <h3>Apple Wallet</h3>
  ${appleStatus(server.wallet, server.now, lang)}
  <h3>Google Wallet</h3>
  ${googleStatus(server.wallet, lang)}
  ${server.urlWarning ? html`<div class="notice warn"><p>${urlWarningText(server.urlWarning, lang)}</p></div>` : ''}
</section>
<section class="panel" aria-labelledby="login-heading">
  <h2 id="login-heading">${say('console.settings.login')}</h2>
  <p>${sayMarkup(lang, 'console.password.signedInAs', { email: html`<strong>${c.admin.email}</strong>` })} <a href="/console/password">${say('console.password.title')}</a></p>
</section>
<section class="panel" aria-labelledby="server-heading">
  <h2 id="server-heading">${say('console.settings.server')}</h2>
  <dl class="facts">
    <dt>${say('console.settings.publicAddress')}</dt><dd><code>${server.config.publicUrl}</code></dd>
    <dt>${say('console.settings.installLinks')}</dt><dd><code>${server.config.installBaseUrl}/get-pass/…</code></dd>
  </dl>
</section>`,
    lang,
  );
}
