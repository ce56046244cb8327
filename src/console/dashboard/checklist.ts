// The dashboard's start checklist: the first things a new shop does, each ticked from the real
// state of the org (never from a click on the list), each a link to the page where it is done.
// Once every item is done the list folds away into one line.
//
// A feature with a first step of its own adds one entry to CHECKLIST: { label, hint, done(state),
// href }, its label and hint as console catalogue keys (the list is in the admin's language).
import type { Card } from '../../cards/model';
import { cardLogoMeta, listCards } from '../../cards/service';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import type { OrgRow } from '../../orgs/service';
import { readOrgSettings, shopCountry, type OrgSettings } from '../../orgs/settings';
import { listStaff } from '../../staff/service';
import { backupState } from '../../backups/state';
import { recentImports } from '../../import/jobs';
import { countCustomers } from '../../customers/list';
import { addressProblem, GOING_LIVE_HELP } from '../public-address';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';

/** What the items are judged from: read once per dashboard. */
export interface ChecklistState {
  db: Db;
  config: Readonly<Config>;
  clock: Clock;
  org: OrgRow;
  settings: OrgSettings;
  /** The org's cards, archived ones included. */
  cards: Card[];
}

export interface ChecklistItem {
  label: ConsoleKey;
  /** One sentence under the label: why, or what "done" means. */
  hint: ConsoleKey;
  done: (state: ChecklistState) => boolean;
  /** Where it is done; a function when it depends on the org (its first card's poster). */
  href: string | ((state: ChecklistState) => string);
}

/** A card the owner made or saved in the console's editor (the demo cards come made), or one with a logo. */
const designed = (s: ChecklistState) => s.settings.started.cardSavedAt !== null || s.cards.some((c) => cardLogoMeta(s, c.id) !== undefined);

const activeCards = (s: ChecklistState) => s.cards.filter((c) => c.archivedAt === null);

export const CHECKLIST: ChecklistItem[] = [
  {
    label: 'console.checklist.profile',
    hint: 'console.checklist.profileHint',
    // A country the time zone gives (Europe/Berlin: Germany) counts; UTC gives none.
    done: (s) => s.settings.started.profileSavedAt !== null && shopCountry(s.settings) !== null,
    href: '/console/settings',
  },
  {
    label: 'console.checklist.location',
    hint: 'console.checklist.locationHint',
    done: (s) => s.settings.locations.length > 0,
    href: '/console/settings/locations',
  },
  {
    label: 'console.checklist.address',
    hint: 'console.checklist.addressHint',
    done: (s) => addressProblem(s.config.publicUrl) !== 'loopback',
    href: GOING_LIVE_HELP,
  },
  {
    label: 'console.checklist.design',
    hint: 'console.checklist.designHint',
    done: designed,
    href: '/console/cards',
  },
  {
    label: 'console.checklist.staff',
    hint: 'console.checklist.staffHint',
    done: (s) => listStaff(s, s.org.id).length > 0,
    href: '/console/staff',
  },
  {
    label: 'console.checklist.poster',
    hint: 'console.checklist.posterHint',
    done: (s) => s.settings.started.posterPrintedAt !== null,
    href: (s) => {
      const card = activeCards(s).find((c) => c.dataCollectionEnabled);
      return card ? `/console/cards/${card.id}/poster` : '/console/cards';
    },
  },
  {
    label: 'console.checklist.import',
    hint: 'console.checklist.importHint',
    done: (s) => countCustomers(s.db, { orgId: s.org.id, livemode: true }) > 0 || recentImports(s.db, { orgId: s.org.id, livemode: true }).some((job) => job.status === 'done'),
    href: '/console/customers/import',
  },
  {
    label: 'console.checklist.backups',
    hint: 'console.checklist.backupsHint',
    done: (s) => backupState(s).newest !== null,
    href: '/console/settings/backups',
  },
];

export interface ChecklistView {
  items: { label: string; hint: string; href: string; done: boolean }[];
  done: number;
}

export function checklistState(deps: { db: Db; config: Readonly<Config>; clock: Clock }, org: OrgRow): ChecklistState {
  return { db: deps.db, config: deps.config, clock: deps.clock, org, settings: readOrgSettings(deps.db, org.id), cards: listCards(deps, org.id) };
}

export function checklistView(state: ChecklistState, items: readonly ChecklistItem[] = CHECKLIST, lang: ConsoleLang = 'en'): ChecklistView {
  const shown = items.map((item) => ({ label: tConsole(lang, item.label), hint: tConsole(lang, item.hint), href: typeof item.href === 'function' ? item.href(state) : item.href, done: item.done(state) }));
  return { items: shown, done: shown.filter((i) => i.done).length };
}

/** Open while something is left to do; folded into its summary line once everything is done. */
export function checklistPanel(view: ChecklistView, lang: ConsoleLang = 'en'): Markup {
  const all = view.items.length;
  const finished = view.done === all;
  return html`<details class="panel checklist" id="start-checklist"${finished ? '' : html` open`}>
  <summary><h2 id="checklist-heading">${tConsole(lang, finished ? 'console.checklist.finished' : 'console.checklist.title')}</h2> <span class="muted small">${tConsole(lang, 'console.checklist.progress', { done: view.done, all })}</span></summary>
  <ol class="checklist-items" aria-labelledby="checklist-heading">
    ${view.items.map(
      (item) => html`<li class="${item.done ? 'done' : 'todo'}">
      <span class="check-mark" aria-hidden="true">${item.done ? '✓' : ''}</span>
      <span><a href="${item.href}">${item.label}</a><span class="visually-hidden"> ${tConsole(lang, item.done ? 'console.checklist.done' : 'console.checklist.toDo')}</span>
      <span class="hint muted small">${item.hint}</span></span>
    </li>`,
    )}
  </ol>
</details>`;
}
