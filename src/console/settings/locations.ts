import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps';
import { openStreetMapUrl, readMapLink } from '../../lib/map-link';
import { defaultRelevantText, LOCATION_NAME_MAX, MAX_LOCATIONS, RELEVANT_TEXT_MAX, type ShopLocation } from '../../orgs/locations';
import { saveShopLocations } from '../../orgs/service';
import { readOrgSettings } from '../../orgs/settings';
import { formError, inputField } from '../../web/fields';
import { field, noErrors, parseForm, type FormErrors } from '../../web/forms';
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

const LocationFields = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Give the location a name, such as the street.'), v.maxLength(LOCATION_NAME_MAX, `At most ${LOCATION_NAME_MAX} characters.`)),
  relevantText: v.pipe(v.string(), v.trim(), v.maxLength(RELEVANT_TEXT_MAX, `At most ${RELEVANT_TEXT_MAX} characters.`)),
});

interface LocationsView {
  locations: readonly ShopLocation[];
  form: LocationForm;
  errors?: FormErrors;
  notice?: string;
}

function locationsTable(c: ConsoleContext, locations: readonly ShopLocation[]): Markup {
  if (locations.length === 0) return html`<p class="empty">No location yet. Add your shop below: passes then show up on customers' lock screens as they come by.</p>`;
  return html`<div class="table-wrap"><table class="stacked" id="locations">
  <caption class="visually-hidden">Your shop's locations</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Where</th><th scope="col">Lock-screen text</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
  <tbody>${locations.map(
    (l, i) => html`<tr>
    <td data-label="Name">${l.name}</td>
    <td data-label="Where" class="nowrap"><a href="${openStreetMapUrl(l)}" target="_blank" rel="noopener noreferrer">${l.latitude}, ${l.longitude}</a></td>
    <td data-label="Lock-screen text">${l.relevantText ?? html`<span class="muted">${defaultRelevantText(c.lang, l.name)}</span>`}</td>
    <td><form method="post" action="${LOCATIONS_PATH}/${i}/remove">${csrfField(c)}<input type="hidden" name="name" value="${l.name}"><button type="submit" class="secondary small-button" aria-label="Remove ${l.name}">Remove</button></form></td>
  </tr>`,
  )}</tbody></table></div>`;
}

function addForm(c: ConsoleContext, view: LocationsView): Markup {
  if (view.locations.length >= MAX_LOCATIONS) return html`<p class="muted">That is ${MAX_LOCATIONS} locations, as many as a pass carries. Remove one to add another.</p>`;
  const errors = view.errors ?? noErrors();
  return html`<h3 class="small-heading" id="add-heading">Add a location</h3>
<form method="post" action="${LOCATIONS_PATH}" class="form" novalidate aria-labelledby="add-heading">
  ${csrfField(c)}
  ${inputField({ name: 'name', label: 'Name', value: view.form.name, error: errors.fields.name, required: true, maxlength: LOCATION_NAME_MAX, hint: 'Customers see it on the web pass, such as “Main Street” or the name of a second shop.', autocomplete: 'off' })}
  ${inputField({ name: 'where', label: 'Map link or coordinates', value: view.form.where, error: errors.fields.where, required: true, hint: 'Find the shop in Google Maps or OpenStreetMap and paste the address from the browser’s address bar, or type latitude and longitude, such as 52.520008, 13.404954.', autocomplete: 'off' })}
  ${inputField({ name: 'relevantText', label: 'Lock-screen text', value: view.form.relevantText, error: errors.fields.relevantText, maxlength: RELEVANT_TEXT_MAX, hint: html`What an iPhone shows near this location. Left empty: “${defaultRelevantText(c.lang, view.form.name || 'Main Street')}”.`, autocomplete: 'off' })}
  <div class="actions"><button type="submit">Add location</button></div>
</form>`;
}

function locationsBody(c: ConsoleContext, view: LocationsView): Markup {
  return settingsPage(
    LOCATIONS_PATH,
    html`<section class="panel" aria-labelledby="locations-heading">
  <h2 id="locations-heading">Locations</h2>
  <p>Where your shop is, up to ${MAX_LOCATIONS} places. An iPhone shows the card on the lock screen when its holder is near one; Google Wallet passes carry them too, and the web pass links to a map. The same for live and test data.</p>
  ${view.notice ? html`<div class="notice ok" role="status"><p>${view.notice}</p></div>` : ''}
  ${formError(view.errors?.form)}
  ${locationsTable(c, view.locations)}
  ${addForm(c, view)}
</section>`,
  );
}

/** The typed fields as a location, or what is wrong with each. */
function readLocation(form: LocationForm): { ok: true; location: ShopLocation } | { ok: false; errors: FormErrors } {
  const parsed = parseForm(LocationFields, { name: form.name, relevantText: form.relevantText });
  const errors = parsed.ok ? noErrors() : parsed.errors;
  const where = readMapLink(form.where);
  if (!where.ok) errors.fields.where = where.message;
  if (!parsed.ok || !where.ok) return { ok: false, errors };
  const { name, relevantText } = parsed.value;
  return { ok: true, location: { name, ...where.coordinates, ...(relevantText ? { relevantText } : {}) } };
}

export function bindLocationSettings(router: Router, deps: AppDeps): void {
  const show = (ctx: Context, view: Omit<LocationsView, 'locations'>, status = 200) => {
    const c = consoleOf(ctx);
    const locations = readOrgSettings(deps.db, c.org.id).locations;
    sendConsolePage(ctx, deps, c, { section: 'settings', title: 'Locations', status, body: locationsBody(c, { ...view, locations }) });
  };
  const notices: Record<string, string> = { added: 'Location added. Installed passes pick it up in a moment.', removed: 'Location removed. Installed passes drop it in a moment.' };

  router.get(LOCATIONS_PATH, (ctx) => show(ctx, { form: EMPTY_FORM, notice: notices[String(ctx.query.done)] }));

  router.post(LOCATIONS_PATH, (ctx) => {
    const c = consoleOf(ctx);
    const typed = consoleForm(ctx);
    const form: LocationForm = { name: field(typed, 'name'), where: field(typed, 'where'), relevantText: field(typed, 'relevantText') };
    const read = readLocation(form);
    if (!read.ok) return show(ctx, { form, errors: read.errors }, 400);
    const current = readOrgSettings(deps.db, c.org.id).locations;
    if (current.length >= MAX_LOCATIONS) return show(ctx, { form, errors: { fields: {}, form: `A pass carries at most ${MAX_LOCATIONS} locations: remove one first.` } }, 400);
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
      return show(ctx, { form: EMPTY_FORM, errors: { fields: {}, form: 'That location is no longer in the list (it was changed meanwhile); nothing was removed.' } }, 409);
    }
    saveShopLocations(deps, c.org.id, current.filter((_, i) => i !== index));
    ctx.status = 303;
    ctx.redirect(`${LOCATIONS_PATH}?done=removed`);
  });
}
