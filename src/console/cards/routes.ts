// The console's cards: list, create, edit (rows added and removed by plain submit buttons), the
// pass preview, and the logo. Every save goes through the cards service, validated first by the
// seed file's CardConfig schema; a refused form comes back as typed with each field's message.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { prepareLogo } from '../../cards/logo';
import type { Card, CardLogo } from '../../cards/model';
import { cardCustomerCounts, cardLogoMeta, getOrgCard, listCards, removeCardLogo } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { field, noErrors, type FormErrors, type FormFields } from '../../web/forms';
import { html } from '../../web/html';
import { sendPage } from '../../customer-pages/shell';
import { cardCss, webPassBody } from '../../customer-pages/pass/views';
import { passLogoUrl } from '../../wallet/logo-images';
import { passContent } from '../../wallet/pass-content';
import { shopPassLocale } from '../../wallet/customer-content';
import { qrSvg } from '../../wallet/qr';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { applyRowAction, cardToForm, emptyCardForm, fieldsFromQuery, focusAfter, parseRowAction, readCardForm, type CardForm } from './form';
import { previewCard, previewUrl, sampleHolder } from './preview';
import { PREVIEW_PATH } from './preview-fields';
import { readCardUpload, readLogoUpload } from './upload';
import { saveCardFromEditor, saveCardLogo } from './save';
import { editorErrorsFrom, logoMessage, validateCardForm } from './validate';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { cardListBody, editorBody, type EditorView } from './views';
import { bindCardLifecycle, LIFECYCLE_NOTICES, lifecyclePanel } from './lifecycle';

const NOTICES: Record<string, ConsoleKey> = {
  created: 'console.cardEditor.notice.created',
  saved: 'console.cardEditor.notice.saved',
  logo: 'console.cardEditor.notice.logo',
  'logo-removed': 'console.cardEditor.notice.logoRemoved',
  ...LIFECYCLE_NOTICES,
};

export function bindCards(router: Router, deps: AppDeps): void {
  function editorPage(ctx: Context, card: Card | undefined, form: CardForm, options: { errors?: FormErrors; status?: number; logoError?: string; notice?: string; focus?: string } = {}): void {
    const c = consoleOf(ctx);
    const logo = card && cardLogoMeta(deps, card.id);
    const customers = card && cardCustomerCounts(deps, c.org.id)(card.id);
    // Once a card has customers, the names their answers are stored under stay as they are.
    const locked =
      card && customers && customers.live + customers.test + customers.erased.live + customers.erased.test > 0
        ? { keys: new Set(card.questions.map((q) => q.key)), values: new Map(card.questions.map((q) => [q.key, new Set((q.options ?? []).map((o) => o.value))])) }
        : undefined;
    const view: EditorView = {
      ...(card && customers ? { cardId: card.id, storedName: card.name, customers, lifecycle: lifecyclePanel(c, card, customers), archived: card.archivedAt !== null } : {}),
      form,
      errors: options.errors ?? noErrors(),
      ...(card && logo ? { logo: { ...logo, url: passLogoUrl(card, logo)! } } : {}),
      ...(options.logoError ? { logoError: options.logoError } : {}),
      ...(options.notice ? { notice: options.notice } : {}),
      ...(options.focus ? { focus: options.focus } : {}),
      ...(locked ? { locked } : {}),
      previewUrl: previewUrl(form, card?.id),
    };
    sendConsolePage(ctx, deps, c, { section: 'cards', title: card ? tConsole(c.lang, 'console.cardEditor.heading', { name: card.name }) : tConsole(c.lang, 'console.cardEditor.newTitle'), status: options.status, scripts: ['console.js'], body: editorBody(c, view) });
  }

  /**
   * Save, preview or a row button: the editor's one POST handler, for a new card or an existing one.
   * The guard reads url-encoded forms (the editor of a card); the new-card form is multipart, as it
   * carries the logo too.
   */
  async function submit(ctx: Context, card: Card | undefined): Promise<void> {
    const c = consoleOf(ctx);
    let fields = ctx.state.form as FormFields | undefined;
    let logoBytes: Buffer | undefined;
    if (!fields && !card && ctx.request.is('multipart/form-data')) {
      const upload = await readCardUpload(ctx);
      fields = upload.fields;
      if (upload.logo.length) logoBytes = upload.logo;
    }
    if (!fields) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the card form as application/x-www-form-urlencoded' });
    const form = readCardForm(fields);
    const action = field(fields, '_action') || 'save';
    const row = parseRowAction(action);
    if (row) {
      const applied = applyRowAction(form, row).form;
      return editorPage(ctx, card, applied, { focus: focusAfter(row, applied) });
    }
    if (action === 'preview') return editorPage(ctx, card, form);
    const result = validateCardForm(form, c.lang);
    if (!result.ok) return editorPage(ctx, card, form, { errors: result.errors, status: 400 });
    let logo: CardLogo | undefined;
    if (logoBytes) {
      try {
        logo = prepareLogo(logoBytes);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return editorPage(ctx, card, form, { status: err.status, logoError: logoMessage(c.lang, err) });
      }
    }
    let saved: Card;
    try {
      saved = saveCardFromEditor(deps, c.org.id, card, result.config, logo);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return editorPage(ctx, card, form, { errors: editorErrorsFrom(c.lang, err, result.rewardRows), status: err.status });
    }
    ctx.status = 303;
    ctx.redirect(`/console/cards/${encodeURIComponent(saved.id)}?done=${card ? 'saved' : 'created'}`);
  }

  const orgCard = (ctx: Context) => getOrgCard(deps, consoleOf(ctx).org.id, ctx.params.cardId!);
  const notice = (ctx: Context) => {
    const key = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
    return key && tConsole(consoleOf(ctx).lang, key);
  };

  router.get('/console/cards', (ctx) => {
    const c = consoleOf(ctx);
    const counts = cardCustomerCounts(deps, c.org.id);
    const rows = listCards(deps, c.org.id).map((card) => ({ card, customers: counts(card.id) }));
    const deleted = typeof ctx.query.deleted === 'string' ? ctx.query.deleted.slice(0, 100) : undefined;
    sendConsolePage(ctx, deps, c, { section: 'cards', title: tConsole(c.lang, 'console.cards.title'), body: cardListBody(c, rows, deleted) });
  });

  bindCardLifecycle(router, deps);
  router.get('/console/cards/new', (ctx) => editorPage(ctx, undefined, emptyCardForm()));
  router.post('/console/cards/new', (ctx) => submit(ctx, undefined));

  // The web pass of a sample customer, drawn from the editor's fields in the query string. A page
  // of its own, framed by the editor only (frame-ancestors 'self'), with the card's colours in its
  // own nonce'd style: the console's CSP forbids style attributes, and this keeps the preview the
  // exact rendering customers get.
  router.get(PREVIEW_PATH, async (ctx) => {
    const c = consoleOf(ctx);
    const form = readCardForm(fieldsFromQuery(ctx.query));
    const cardId = typeof ctx.query.card === 'string' ? ctx.query.card : undefined;
    const stored = cardId ? listCards(deps, c.org.id).find((card) => card.id === cardId) : undefined;
    const card = previewCard(form, { id: stored?.id ?? 'card_preview', orgId: c.org.id }, c.lang);
    const content = passContent(card, sampleHolder(card, c.lang), c.org.name, shopPassLocale(deps.db, card));
    const logoUrl = stored && passLogoUrl(stored, cardLogoMeta(deps, stored.id));
    // Compact: a smaller code and no note under the card, so the whole pass fits the preview's frame.
    sendPage(ctx, tConsole(c.lang, 'console.cardEditor.previewFrame'), html`${webPassBody(content, await qrSvg(content.scanCode), logoUrl, html``)}`, { private: true, css: `${cardCss(card)}.qr svg{max-width:9rem}main{padding:1rem .75rem}`, frameable: true });
  });

  router.get('/console/cards/:cardId', (ctx) => {
    const card = orgCard(ctx);
    editorPage(ctx, card, cardToForm(card), { notice: notice(ctx) });
  });
  router.post('/console/cards/:cardId', (ctx) => submit(ctx, orgCard(ctx)));

  router.post('/console/cards/:cardId/logo', async (ctx) => {
    const c = consoleOf(ctx);
    const card = orgCard(ctx);
    try {
      saveCardLogo(deps, c.org.id, card.id, prepareLogo(await readLogoUpload(ctx)));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return editorPage(ctx, card, cardToForm(card), { status: err.status, logoError: logoMessage(consoleOf(ctx).lang, err) });
    }
    ctx.status = 303;
    ctx.redirect(`/console/cards/${encodeURIComponent(card.id)}?done=logo#logo`);
  });

  router.post('/console/cards/:cardId/logo/remove', (ctx) => {
    const c = consoleOf(ctx);
    const card = orgCard(ctx);
    removeCardLogo(deps, c.org.id, card.id);
    ctx.status = 303;
    ctx.redirect(`/console/cards/${encodeURIComponent(card.id)}?done=logo-removed#logo`);
  });
}
