// The console import's steps over HTTP, as the owner's browser sends them: upload (multipart, the
// CSRF token in the query), the mapping form, the dry run, the import run by the server.
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import type { TestApp } from '../support/app';
import type { ConsoleClient } from '../support/console';

export interface ImportSteps {
  upload(file: { name: string; bytes: Buffer | string }, cardId: string): Promise<{ status: number; location: string | null; text: string }>;
  check(path: string, mapping: string[]): Promise<{ status: number; text: string }>;
  runToEnd(path: string): Promise<string>;
}

export const fieldsOf = (text: string) => ({
  csrf: /name="_csrf" value="([^"]+)"/.exec(text)![1]!,
  mapping: [...text.matchAll(/<select id="f-map-(\d+)" name="map\.\d+"[^>]*>([\s\S]*?)<\/select>/g)].map((m) => /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? ''),
});

export const figure = (text: string, id: string) => Number(new RegExp(`id="figure-${id}"><dt>[^<]*</dt><dd class="stat">([\\d,]+)</dd>`).exec(text)![1]!.replace(/,/g, ''));

export const figures = (text: string) => ({ created: figure(text, 'created'), matched: figure(text, 'matched'), refused: figure(text, 'refused') });

export function importSteps(app: TestApp, client: ConsoleClient): ImportSteps {
  return {
    async upload(file, cardId) {
      const page = await client.request('GET', '/console/customers/import');
      const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
      const form = new FormData();
      form.set('card', cardId);
      form.set('file', new Blob([file.bytes]), file.name);
      const res = await fetch(app.url + action, { method: 'POST', body: form, headers: { Cookie: client.cookieHeader(), Origin: app.url }, redirect: 'manual' });
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    },

    async check(path, mapping) {
      const page = await client.request('GET', path);
      const form: Record<string, string> = { _csrf: fieldsOf(page.text).csrf };
      mapping.forEach((target, i) => (form[`map.${i}`] = target));
      return client.request('POST', `${path}/check`, { form });
    },

    /** Starts the checked import and waits for the server's runner to finish it (no sleep: turns of the event loop). */
    async runToEnd(path) {
      const page = await client.request('GET', path);
      const start = await client.request('POST', `${path}/start`, { form: { _csrf: fieldsOf(page.text).csrf } });
      assert.equal(start.status, 303);
      for (let i = 0; i < 10_000; i++) {
        const progress = await client.request('GET', `${path}/progress`, { headers: { 'HX-Request': 'true' } });
        if (progress.text.includes('Import finished') || progress.text.includes('Import abgeschlossen')) return progress.text;
        await tick();
      }
      throw new Error('the import did not finish');
    },
  };
}
