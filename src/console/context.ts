import type { Context } from 'koa';
import type { Namespace } from '../customers/model';
import type { AdminRow, OrgRow } from '../orgs/repo';
import type { SessionRow } from '../web/sessions-repo';

/** Who is signed in to the console, and which data (live or test) they are looking at. */
export interface ConsoleContext {
  session: SessionRow;
  admin: AdminRow;
  org: OrgRow;
  livemode: boolean;
  /** The org's live data or its test sandbox, as the switch stands: what every section reads and writes. */
  namespace: Namespace;
  csrfToken: string;
}

/** The console context the guard put on the request (only routes behind the guard call this). */
export function consoleOf(ctx: Context): ConsoleContext {
  const state = ctx.state.console as ConsoleContext | undefined;
  if (!state) throw new Error('console route reached without the console guard');
  return state;
}
