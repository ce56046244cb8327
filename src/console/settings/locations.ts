import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps';
import type { ConsoleLang, Lang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { openStreetMapUrl, readMapLink, type MapLinkProblem } from '../../lib/map-link';
import { defaultRelevantText, LOCATION_NAME_MAX, MAX_LOCATIONS, RELEVANT_TEXT_MAX, ShopLocationSchema, type ShopLocation } from '../../orgs/locations';
import { saveShopLocations } from '../../orgs/service';
import { readOrgSettings } from '../../orgs/settings';
import { formError, inputField } from '../../web/fields';
import { field, hasErrors, noErrors, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { csrfField, sendConsolePage } from '../layout';
import { settingsPage } from './subnav';

// Settings → Locations: where the shop is. Apple shows the pass on the lock screen near each
// location with its text, Google carries them on the pass, the web pass links to a map. The owner
// pastes a map link (Google Maps, OpenStreetMap) or types the coordinates; the page reads them.

export const LOCATIONS_PATH = '/console/settings/locations';

interface LocationForm {
  name: string;
  where: string;
  relevantText: string;
}

const EMPTY_FORM: LocationForm = { name: '', where: '', relevantText: '' };

const WHERE_PROBLEMS: Record<MapLinkProblem, ConsoleKey> = {
  empty: 'console.locations.where.empty',
  range: 'console.locations.where.range',
  geo: 'console.locations.where.geo',
  notLink: 'console.locations.where.notLink',
  short: 'console.locations.where.short',
  none: 'console.locations.where.none',
};

interface LocationsView {
  locations: readonly ShopLocation[];
  /** The shop's language: the lock-screen text customers get when the owner writes none. */
  shopLang: Lang;
  form: LocationForm;
  errors?: FormErrors;
  notice?: string;
}

function locationsTable(c: ConsoleContext, view: LocationsView): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(c.lang, key, params);
  const { locations } = view;
  if (locations.length === 0) return html`<p class="empty">${say('console.locations.empty')}</p>`;
  return html`<div class="table-wrap"><table class="stacked" id="locations">
  <caption class="visually-hidden">${say('console.locations.caption')}</caption>
  <thead><tr><th scope="col">${say('console.locations.name')}</th><th scope="col">${say('console.locations.where')}</th><th scope="col">${say('console.locations.relevantText')}</th><th scope="col"><span class="visually-hidden">${say('console.locations.remove')}</span></th></tr></thead>
  <tbody>${locations.map(
    (l, i) => html`<tr>
    <td data-label="${say('console.locations.name')}">${l.name}</td>
    <td data-label="${say('console.locations.where')}" class="nowrap"><a href="${openStreetMapUrl(l)}" target="_blank" rel="noopener noreferrer">${l.latitude}, ${l.longitude}</a></td>
    <td data-label="${say('console.locations.relevantText')}">${l.relevantText ?? html`<span class="muted">${defaultRelevantText(view.shopLang, l.name)}</span>`}</td>
    <td><form method="post" action="${LOCATIONS_PATH}/${i}/remove">${csrfField(c)}<input type="hidden" name="name" value="${l.name}"><button type="submit" class="secondary small-button" aria-label="${say('console.locations.removeNamed', { name: l.name })}">${say('console.locations.remove')}</button></form></td>
  </tr>`,
  )}</tbody></table></div>`;
}

function addForm(c: ConsoleContext, view: LocationsView): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(c.lang, key, params);
  if (view.locations.length >= MAX_LOCATIONS) return html`<p class="muted">${say('console.locations.full', { max: MAX_LOCATIONS })}</p>`;
  const errors = view.errors ?? noErrors();
  const example = defaultRelevantText(view.shopLang, view.form.name || say('console.locations.exampleName'));
  return html`<h3 class="small-heading" id="add-heading">${say('console.locations.add')}</h3>
<form method="post" action="${LOCATIONS_PATH}" class="form" novalidate aria-labelledby="add-heading">
  ${csrfField(c)}
  ${inputField({ name: 'name', label: say('console.locations.name'), value: view.form.name, error: errors.fields.name, required: true, maxlength: LOCATION_NAME_MAX, hint: say('console.locations.nameHint'), autocomplete: 'off' })}
  ${inputField({ name: 'where', label: say('console.locations.whereLabel'), value: view.form.where, error: errors.fields.where, required: true, hint: say('console.locations.whereHint'), autocomplete: 'off' })}
  ${inputField({ name: 'relevantText', label: say('console.locations.relevantText'), value: view.form.relevantText, error: errors.fields.relevantText, maxlength: RELEVANT_TEXT_MAX, hint: say('console.locations.relevantTextHint', { text: example }), autocomplete: 'off' })}
  <div class="actions"><button type="submit">${say('console.locations.submit')}</button></div>
</form>`;
}

function locationsBody(c: ConsoleContext, view: LocationsView): Markup {
  return settingsPage(
    LOCATIONS_PATH,
    html`<section class="panel" aria-labelledby="locations-heading">
  <h2 id="locations-heading">${tConsole(c.lang, 'console.locations.title')}</h2>
  <p>${tConsole(c.lang, 'console.locations.intro', { max: MAX_LOCATIONS })}</p>
  ${view.notice ? html`<div class="notice ok" role="status"><p>${view.notice}</p></div>` : ''}
  ${formError(view.errors?.form)}
  ${locationsTable(c, view)}
  ${addForm(c, view)}
</section>`,
    c.lang,
  );
}

/** The typed fields as a location, or what is wrong with each, in the admin's language. */
function readLocation(lang: ConsoleLang, form: LocationForm): { ok: true; location: ShopLocation } | { ok: false; errors: FormErrors } {
  const errors = noErrors();
  const name = form.name.trim();
  const relevantText = form.relevantText.trim();
  if (!name) errors.fields.name = tConsole(lang, 'console.locations.error.name');
  else if (name.length > LOCATION_NAME_MAX) errors.fields.name = tConsole(lang, 'console.locations.error.tooLong', { max: LOCATION_NAME_MAX });
  if (relevantText.length > RELEVANT_TEXT_MAX) errors.fields.relevantText = tConsole(lang, 'console.locations.error.tooLong', { max: RELEVANT_TEXT_MAX });
  const where = readMapLink(form.where);
  if (!where.ok) errors.fields.where = tConsole(lang, WHERE_PROBLEMS[where.problem]);
  if (!where.ok || hasErrors(errors)) return { ok: false, errors };
  // The settings schema judges it again when it is saved (the same limits as the seed file's).
  const location = v.parse(ShopLocationSchema, { name, ...where.coordinates, ...(relevantText ? { relevantText } : {}) });
  return { ok: true, location };
}

export function bindLocationSettings(router: Router, deps: AppDeps): void {
  const show = (ctx: Context, view: Omit<LocationsView, 'locations' | 'shopLang'>, status = 200) => {
    const c = consoleOf(ctx);
    const settings = readOrgSettings(deps.db, c.org.id);
    const body = locationsBody(c, { ...view, locations: settings.locations, shopLang: settings.language });
    sendConsolePage(ctx, deps, c, { section: 'settings', title: tConsole(c.lang, 'console.locations.title'), status, body });
  };
  const notices: Record<string, ConsoleKey> = { added: 'console.locations.added', removed: 'console.locations.removed' };

  router.get(LOCATIONS_PATH, (ctx) => {
    const notice = notices[String(ctx.query.done)];
    show(ctx, { form: EMPTY_FORM, ...(notice ? { notice: tConsole(consoleOf(ctx).lang, notice) } : {}) });
  });

  router.post(LOCATIONS_PATH, (ctx) => {
    const c = consoleOf(ctx);
    const typed = consoleForm(ctx);
    const form: LocationForm = { name: field(typed, 'name'), where: field(typed, 'where'), relevantText: field(typed, 'relevantText') };
    const read = readLocation(c.lang, form);
    if (!read.ok) return show(ctx, { form, errors: read.errors }, 400);
    const current = readOrgSettings(deps.db, c.org.id).locations;
    if (current.length >= MAX_LOCATIONS) return show(ctx, { form, errors: { fields: {}, form: tConsole(c.lang, 'console.locations.error.full', { max: MAX_LOCATIONS }) } }, 400);
    saveShopLocations(deps, c.org.id, [...current, read.location]);
    ctx.status = 303;
    ctx.redirect(`${LOCATIONS_PATH}?done=added`);
  });

  // By position, checked against the name the page showed: a list changed in another tab meanwhile removes nothing it did not mean.
  router.post(`${LOCATIONS_PATH}/:index/remove`, (ctx) => {
    const c = consoleOf(ctx);
    const current = readOrgSettings(deps.db, c.org.id).locations;
    const index = Number(ctx.params.index);
    const target = Number.isInteger(index) ? current[index] : undefined;
    if (!target || target.name !== field(consoleForm(ctx), 'name')) {
      return show(ctx, { form: EMPTY_FORM, errors: { fields: {}, form: tConsole(c.lang, 'console.locations.error.gone') } }, 409);
    }
    saveShopLocations(deps, c.org.id, current.filter((_, i) => i !== index));
    ctx.status = 303;
    ctx.redirect(`${LOCATIONS_PATH}?done=removed`);
  });
}
