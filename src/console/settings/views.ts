import type { Config } from '../../config';
import { html, type Markup } from '../../web/html';
import { formError, inputField, selectField } from '../../web/fields';
import { countryOfZone, phoneCountries, zoneChoices } from '../../lib/time-zones';
import { currencyChoices } from '../../i18n/currencies';
import { LANG_NAMES, LANGS } from '../../i18n/langs';
import type { FormErrors } from '../../web/forms';
import { APPLE_SETTINGS, GOOGLE_SETTINGS, type WalletServices } from '../../wallet/services';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
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

/** The empty choice of the country list: what it stands for. */
function zoneCountry(timeZone: string): string {
  const code = countryOfZone(timeZone);
  const name = code && phoneCountries().find((c) => c.code === code)?.name;
  return name ? `The time zone's: ${name}` : 'None';
}

/**
 * The time zone: a text field that filters the list as the owner types (a <datalist>: "kolk" finds
 * Asia/Kolkata, "ukr" Europe/Kyiv by its country). console.js adds a button that fills in the
 * zone this browser is in.
 */
function timeZoneField(value: string, error: string | undefined): Markup {
  return html`${inputField({ name: 'timeZone', label: 'Time zone', value, error, required: true, list: 'time-zones', autocomplete: 'off', hint: 'Type a city or country and pick from the list. Your days on the dashboard, and the counter\'s daily limits, follow this clock.' })}
<datalist id="time-zones">${zoneChoices().map((z) => html`<option value="${z.zone}">${z.country}</option>`)}</datalist>
<p class="browser-zone" data-browser-zone hidden><button type="button" class="secondary" data-use-zone>Use this device's time zone</button> <span class="muted small" data-zone-name></span></p>`;
}

function settingList(names: readonly string[]): Markup {
  return html`${names.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`)}`;
}

function appleStatus(wallet: WalletServices, now: number): Markup {
  const apple = wallet.apple;
  if (!apple) {
    return html`<p><span class="badge warn">Off</span> Apple Wallet passes are not set up. Set ${settingList(APPLE_SETTINGS)} and restart the server (README, "Apple Wallet").</p>`;
  }
  const expires = apple.certificateNotAfter.getTime();
  const days = Math.floor((expires - now) / DAY);
  const state = days < 0 ? html`<span class="badge danger">Expired</span>` : days < 30 ? html`<span class="badge warn">Expires in ${days} days</span>` : html`<span class="badge ok">On</span>`;
  return html`<p>${state} Apple Wallet passes are issued.</p>
<dl class="facts">
  <dt>Pass type</dt><dd><code>${apple.passTypeId}</code></dd>
  <dt>Team</dt><dd><code>${apple.teamId}</code></dd>
  <dt>Certificate expires</dt><dd>${new Date(expires).toISOString().slice(0, 10)}${days < 30 ? html` — renew it in Apple's developer portal before then, or installed passes stop updating` : ''}</dd>
</dl>`;
}

function googleStatus(wallet: WalletServices): Markup {
  const google = wallet.google;
  if (!google) {
    return html`<p><span class="badge warn">Off</span> Google Wallet passes are not set up. Set ${settingList(GOOGLE_SETTINGS)} and restart the server (README, "Google Wallet").</p>`;
  }
  return html`<p><span class="badge ok">On</span> Google Wallet passes are issued.</p>
<dl class="facts"><dt>Issuer</dt><dd><code>${google.issuerId}</code></dd><dt>Service account</dt><dd><code>${google.serviceAccount.clientEmail}</code></dd></dl>`;
}

/** The settings page: the business first, then the panels of other features (the counter's), the sign-up form, then what the operator set. */
export function settingsBody(
  c: ConsoleContext,
  view: SettingsView,
  server: { config: Readonly<Config>; wallet: WalletServices; urlWarning?: string; now: number },
  panels: Markup[] = [],
): Markup {
  const errors = view.errors ?? { fields: {} };
  return settingsPage('/console/settings', html`${view.saved ? html`<div class="notice ok" role="status"><p>Saved.</p></div>` : ''}
${formError(errors.form)}
<form method="post" action="/console/settings" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>Your business</h2>
  ${inputField({ name: 'name', label: 'Business name', value: view.name, error: errors.fields.name, required: true, maxlength: 100, hint: 'Shown on passes and on every page your customers and staff see.' })}
  ${inputField({ name: 'brandColor', label: 'Brand colour', type: 'color', value: view.brandColor, error: errors.fields.brandColor, required: true, hint: 'The colour of the console, the counter and the sign-up form.' })}
  ${timeZoneField(view.timeZone, errors.fields.timeZone)}
  ${selectField({
    name: 'country',
    label: 'Country',
    value: view.country,
    error: errors.fields.country,
    placeholder: zoneCountry(view.timeZone),
    options: phoneCountries().map((c) => ({ value: c.code, label: c.name })),
    hint: 'Phone numbers typed without a country code, on the sign-up form, at the counter, here and in imported files, are read as numbers of this country, and so are amounts such as 1.000 in imported files.',
  })}
  ${selectField({
    name: 'language',
    label: 'Language',
    value: view.language,
    error: errors.fields.language,
    required: true,
    options: LANGS.map((lang) => ({ value: lang, label: LANG_NAMES[lang] })),
    hint: 'The language of your customers’ cards and emails. A customer who signed up in another of these languages keeps theirs.',
  })}
  ${selectField({
    name: 'currency',
    label: 'Currency',
    value: view.currency,
    error: errors.fields.currency,
    placeholder: 'None: amounts without a currency sign',
    options: currencyChoices('en').map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
    hint: 'Store credit on passes and pages is shown in this currency, unless the card names its own.',
  })}
  <div class="actions"><button type="submit">Save settings</button></div>
</form>
${panels}
${view.signup ? signupPanel(c, view.signup) : ''}
<section class="panel" aria-labelledby="wallet-heading">
  <h2 id="wallet-heading">Wallet passes</h2>
  <p class="muted">Customers can always use the web pass. Apple and Google Wallet passes need the server operator's settings; they are read when the server starts.</p>
  <h3>Apple Wallet</h3>
  ${appleStatus(server.wallet, server.now)}
  <h3>Google Wallet</h3>
  ${googleStatus(server.wallet)}
  ${server.urlWarning ? html`<div class="notice warn"><p>${server.urlWarning}</p></div>` : ''}
</section>
<section class="panel" aria-labelledby="login-heading">
  <h2 id="login-heading">Your login</h2>
  <p>Signed in as <strong>${c.admin.email}</strong>. <a href="/console/password">Change password</a></p>
</section>
<section class="panel" aria-labelledby="server-heading">
  <h2 id="server-heading">Server</h2>
  <dl class="facts">
    <dt>Public address</dt><dd><code>${server.config.publicUrl}</code></dd>
    <dt>Install links</dt><dd><code>${server.config.installBaseUrl}/get-pass/…</code></dd>
  </dl>
</section>`);
}
