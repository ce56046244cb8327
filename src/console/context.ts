import type { Context } from 'koa';
import type { Namespace } from '../customers/model';
import type { ConsoleLang } from '../i18n/langs';
import { tConsole } from '../i18n/translate';
import { ApiError, inWords } from '../lib/errors';
import type { AdminRow, OrgRow } from '../orgs/service';
import type { FormFields } from '../web/forms';
import type { SessionRow } from '../web/sessions';

/** Who is signed in to the console, and which data (live or test) they are looking at. */
export interface ConsoleContext {
  session: SessionRow;
  admin: AdminRow;
  org: OrgRow;
  livemode: boolean;
  /** The org's live data or its test sandbox, as the switch stands: what every section reads and writes. */
  namespace: Namespace;
  csrfToken: string;
  /** The admin's console language (their choice, else the shop's when German, else English). */
  lang: ConsoleLang;
}

/** The console context the guard put on the request (only routes behind the guard call this). */
export function consoleOf(ctx: Context): ConsoleContext {
  const state = ctx.state.console as ConsoleContext | undefined;
  if (!state) throw new Error('console route reached without the console guard');
  return state;
}

/** Every console form is a web form: what a request that sent another kind of body is told, in the admin's language. */
export const unsupportedBody = (lang: ConsoleLang = 'en') => inWords(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: tConsole(lang, 'console.errors.unsupportedBody') }));

/**
 * The url-encoded form the guard read and checked. A request that sent another body (a file
 * upload, which only the upload pages read) is refused with 415 before anything is written.
 */
export function consoleForm(ctx: Context): FormFields {
  const form = ctx.state.form as FormFields | undefined;
  if (!form) throw unsupportedBody((ctx.state.console as ConsoleContext | undefined)?.lang);
  return form;
}
