import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { isTimeZone, readOrgSettings } from '../../orgs/settings';
import { isCurrency } from '../../i18n/currencies';
import { LANGS, type ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { canonicalZone, isPhoneCountry } from '../../lib/time-zones';
import { updateOrgProfile } from '../../orgs/service';
import { field, parseForm } from '../../web/forms';
import { orgAccent } from '../../cards/face';
import { publicUrlWarning, type WalletServices } from '../../wallet/services';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { bindSignupSettings, signupPanelView } from './signup-panel';
import { settingsBody, type SettingsView } from './views';
import { bindCounterSettings, counterSettingsPanel, counterSettingsView, type CounterSettingsView } from './counter';
import { bindAccountSettings } from './account';
import { consoleFormErrors } from '../refusals';

/** The business form, its messages in the admin's language. */
const settingsForm = (lang: ConsoleLang) => {
  const say = (key: Parameters<typeof tConsole>[1]) => tConsole(lang, key);
  return v.object({
    name: v.pipe(v.string(), v.trim(), v.minLength(1, say('console.settings.nameMissing')), v.maxLength(100, tConsole(lang, 'console.settings.atMost', { max: 100 }))),
    brandColor: v.pipe(v.string(), v.trim(), v.regex(/^#[0-9a-fA-F]{6}$/, say('console.settings.colourInvalid'))),
    timeZone: v.pipe(v.string(), v.trim(), v.check(isTimeZone, say('console.settings.timeZoneInvalid'))),
    country: v.pipe(v.string(), v.check((c) => c === '' || isPhoneCountry(c), say('console.settings.countryInvalid'))),
    language: v.picklist(LANGS, say('console.account.languageInvalid')),
    currency: v.pipe(v.string(), v.check((c) => c === '' || isCurrency(c), say('console.settings.currencyInvalid'))),
  });
};
const SETTINGS_FORMS = { en: settingsForm('en'), de: settingsForm('de') } satisfies Record<ConsoleLang, unknown>;

const hex = (rgb: readonly number[]) => `#${rgb.map((n) => n.toString(16).padStart(2, '0')).join('')}`;

export function bindSettings(router: Router, deps: AppDeps, wallet: WalletServices): void {
  const urlWarning = publicUrlWarning(deps.config, wallet);
  const page = (ctx: Context, view: SettingsView, status = 200, counter?: CounterSettingsView) => {
    const c = consoleOf(ctx);
    const counterView = counter ?? counterSettingsView(readOrgSettings(deps.db, c.org.id), ctx.query.counterSaved === '1');
    const body = settingsBody(c, view, { config: deps.config, wallet, urlWarning, now: deps.clock.now() }, [counterSettingsPanel(c, counterView)]);
    sendConsolePage(ctx, deps, c, { section: 'settings', title: tConsole(c.lang, 'console.nav.settings'), status, body });
  };

  const stored = (ctx: Context): SettingsView => {
    const c = consoleOf(ctx);
    const settings = readOrgSettings(deps.db, c.org.id);
    return {
      name: c.org.name,
      brandColor: settings.brandColor ?? hex(orgAccent(deps.db, c.org.id)),
      timeZone: settings.timeZone,
      country: settings.country ?? '',
      language: settings.language,
      currency: settings.currency ?? '',
      signup: signupPanelView(settings, ctx.query.saved === 'signup'),
    };
  };

  router.get('/console/settings', (ctx) => page(ctx, { ...stored(ctx), saved: ctx.query.saved === '1' }));
  bindSignupSettings(router, deps, (ctx, signup, status) => page(ctx, { ...stored(ctx), signup }, status));
  bindCounterSettings(router, deps, (ctx, counter, status) => page(ctx, stored(ctx), status, counter));
  bindAccountSettings(router, deps);

  router.post('/console/settings', (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const current = stored(ctx);
    // A form without the language or currency (sent by an older page) leaves them as they are.
    const typed = {
      name: field(form, 'name'),
      brandColor: field(form, 'brandColor'),
      timeZone: field(form, 'timeZone'),
      country: field(form, 'country'),
      language: form.language === undefined ? current.language : field(form, 'language'),
      currency: form.currency === undefined ? current.currency : field(form, 'currency'),
    };
    const parsed = parseForm(SETTINGS_FORMS[c.lang], typed);
    if (!parsed.ok) return page(ctx, { ...stored(ctx), ...typed, errors: parsed.errors }, 400);
    try {
      updateOrgProfile(deps, c.org.id, {
        name: parsed.value.name,
        brandColor: parsed.value.brandColor.toLowerCase(),
        timeZone: canonicalZone(parsed.value.timeZone)!,
        country: parsed.value.country || null,
        language: parsed.value.language,
        currency: parsed.value.currency || null,
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return page(ctx, { ...stored(ctx), ...typed, errors: consoleFormErrors(consoleOf(ctx).lang, err) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect('/console/settings?saved=1');
  });
}
