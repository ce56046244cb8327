import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { tConsole } from '../../i18n/translate';
import { watchList } from '../../watchlist/service';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { watchListBody } from './views';

// GET /console/watch-list: the live or the test data's watch list, as the console's switch stands.

export function bindWatchList(router: Router, deps: AppDeps): void {
  router.get('/console/watch-list', (ctx) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, { section: 'watch-list', title: tConsole(c.lang, 'console.watchList.title'), body: watchListBody(c.lang, watchList(deps, c.namespace)) });
  });
}
