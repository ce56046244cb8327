// Pages in another language word a service's refusal from the values it states beside its English
// (lib/reasons.ts), never by reading the English back: the English may be reworded at will and the
// German stays; the values never reach the API's body; an import report keeps its rows' reasons,
// and a row reported before reasons were kept is still worded from its stored English.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { consoleFormErrors, reasonWords, refusalText, rowMessage } from '../../src/console/refusals';
import { ImportFileError, MAX_ROWS, parseCsvText } from '../../src/import/csv-file';
import { counterMessage } from '../../src/counter/refusals';
import { ApiError, validationFailed } from '../../src/lib/errors';
import { reason } from '../../src/lib/reasons';
import { checkEarningLimits } from '../../src/loyalty/limits';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp } from '../support/console';
import { importSteps } from '../import/console-steps';

/** The refusal checkEarningLimits throws for these limits and this award (hundredths). */
function limitRefusal(limits: Parameters<typeof checkEarningLimits>[0], amount: number, history: { last: number | null; awarded: number }): ApiError {
  let thrown: unknown;
  assert.throws(
    () => checkEarningLimits(limits, amount, 100_000, { lastAwardAt: () => history.last, awardedSince: () => history.awarded }),
    (err) => ((thrown = err), err instanceof ApiError),
  );
  return thrown as ApiError;
}

/** The same refusal with its English said another way: what a later wording of the service would throw. */
const reworded = (err: ApiError) => new ApiError(err.status, err.code, { detail: 'said in other English words, 12 and 34', extra: err.extra, reason: err.reason });

describe('refusals worded from their values', () => {
  const limits = [
    {
      name: 'the wait between awards',
      err: () => limitRefusal({ waitSeconds: 60 }, 500, { last: 70_000, awarded: 0 }),
      german: 'Diese Karte bucht höchstens einmal alle 60 s; wieder möglich in 30 s.',
    },
    {
      name: 'the most an award may be',
      err: () => limitRefusal({ maxPerAward: 500 }, 800, { last: null, awarded: 0 }),
      german: 'Diese Karte bucht höchstens 5 auf einmal; diese Buchung wäre 8.',
    },
    {
      name: 'the most a period may award',
      err: () => limitRefusal({ period: 'week', maxPerPeriod: 1_000 }, 450, { last: null, awarded: 750 }),
      german: 'Diese Karte bucht höchstens 10 pro Woche (gleitend); in diesem Zeitraum schon 7,5, diese Buchung wäre 4,5.',
    },
  ];
  for (const limit of limits) {
    it(`words ${limit.name} in German from its values, however the English says it`, () => {
      const err = limit.err();
      assert.equal(refusalText('de', err), limit.german);
      assert.equal(refusalText('de', reworded(err)), limit.german);
      // English admins read the service's own words.
      assert.equal(refusalText('en', reworded(err)), 'Said in other English words, 12 and 34');
    });
  }

  it('keeps the values out of the API body: the body is the one of the same refusal without them', () => {
    const err = limitRefusal({ waitSeconds: 60 }, 500, { last: 70_000, awarded: 0 });
    assert.ok(err.reason);
    const without = new ApiError(err.status, err.code, { exactMessage: err.message, extra: err.extra });
    assert.equal(JSON.stringify(err.toBody()), JSON.stringify(without.toBody()));
    const issues = validationFailed([{ path: 'amount', message: 'must be at most 1000000000', reason: reason('tooMuch', { max: 1_000_000_000 }) }]);
    assert.equal(JSON.stringify(issues.toBody()), JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'VALIDATION_FAILED: amount', issues: [{ path: 'amount', message: 'must be at most 1000000000' }] }));
  });

  it('words a validation issue by its values on the console form and at the counter, whatever its English', () => {
    const err = validationFailed([{ path: 'amount', message: 'cannot exceed the ceiling', reason: reason('balanceCap', { max: 1_000_000_000, balance: 999_999_999.5 }) }]);
    assert.equal(consoleFormErrors('de', err, ['amount']).fields.amount, 'Der Stand ginge über 1.000.000.000 hinaus (er ist 999.999.999,5).');
    assert.equal(consoleFormErrors('en', err, ['amount']).fields.amount, 'cannot exceed the ceiling');
    assert.equal(counterMessage('de', err), 'Der Stand ginge über 1.000.000.000 hinaus, mehr fasst eine Karte nicht.');
    // Without a reason the message is not read: the counter names the field, the console's error page the code.
    const bare = validationFailed([{ path: 'amount', message: 'must be at most 1000000000' }]);
    assert.equal(counterMessage('de', bare), counterMessage('de', validationFailed([{ path: 'amount', message: 'anything' }])));
    assert.equal(refusalText('de', new ApiError(400, 'INSUFFICIENT_BALANCE', { detail: 'the balance is 3; this needs 50' })), 'Das hat nicht geklappt (Code INSUFFICIENT_BALANCE).');
  });

  it('words a file the import cannot read from its values, numbers as the admin writes them', async () => {
    const refusal = async (text: string) => {
      let thrown: unknown;
      await assert.rejects(parseCsvText(text), (err) => ((thrown = err), err instanceof ImportFileError));
      return thrown as ImportFileError;
    };
    const wide = await refusal(`${Array.from({ length: 1_201 }, (_, i) => `c${i}`).join(',')}\n`);
    assert.match(wide.message, /^The header has 1,201 columns; a customer file has at most 200\./);
    assert.equal(reasonWords('de', wide.reason), 'Die Kopfzeile hat 1.201 Spalten; eine Kundendatei hat höchstens 200. Exportieren Sie nur die Kundenspalten und laden Sie diese Datei hoch.');
    const long = await refusal(`Name\n${'x\n'.repeat(MAX_ROWS + 1)}`);
    assert.equal(reasonWords('de', long.reason), 'Die Datei hat mehr als 50.000 Kundenzeilen: Teilen Sie sie in Dateien mit höchstens 50.000 auf.');
  });

  it('words a report row from its stored reason, and a row stored before reasons from its English', () => {
    assert.equal(rowMessage('de', { message: 'reworded', reason: reason('row.same', { what: 'phone', row: 7 }) }), 'gleiche Telefonnummer wie Zeile 7');
    assert.equal(rowMessage('de', { message: 'same phone as row 7', reason: null }), 'gleiche Telefonnummer wie Zeile 7');
    assert.equal(rowMessage('de', { message: 'INVALID_EMAIL: not an email', reason: null }), 'Geben Sie eine E-Mail-Adresse wie name@example.com ein.');
    assert.equal(rowMessage('de', { message: 'something no version wrote', reason: null }), 'something no version wrote');
  });
});

describe('an import report in German, from the reasons it stored', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  it('keeps each refused row’s reason beside its English, and words the page and the CSV from it', async () => {
    const org = await seedConsoleOrg(app, 'Café Gründe');
    app.db.prepare('UPDATE admins SET language = ? WHERE email = ?').run('de', org.admin.email);
    const client = new ConsoleClient(app);
    assert.equal((await client.signIn(org.admin.email, org.admin.password)).status, 303);
    const { upload, check, runToEnd } = importSteps(app, client);
    const file = 'Name,Email,Points\nAnna Gut,anna@example.com,12\nBert Schlecht,kein-at-zeichen,3\nClara Doppelt,anna@example.com,5\n';
    const uploaded = await upload({ name: 'kunden.csv', bytes: file }, org.cards.points);
    assert.equal(uploaded.status, 303, uploaded.text);
    const path = uploaded.location!;
    assert.equal((await check(path, ['name', 'email', 'balance'])).status, 200);
    await runToEnd(path);
    const importId = path.split('/').pop()!;
    const stored = app.db.prepare('SELECT row, message, reason FROM import_rows WHERE import_id = ? ORDER BY row').all(importId);
    assert.deepEqual(stored, [
      { row: 2, message: null, reason: null },
      { row: 3, message: 'is not an email address (such as name@example.com)', reason: '{"id":"row.notEmail","params":{}}' },
      { row: 4, message: 'same email as row 2', reason: '{"id":"row.same","params":{"what":"email","row":2}}' },
    ]);

    // The English of a row said another way (a later version's), and a row as versions before reasons stored it.
    app.db.prepare("UPDATE import_rows SET message = 'was refused for its address' WHERE import_id = ? AND row = 3").run(importId);
    app.db.prepare('UPDATE import_rows SET reason = NULL WHERE import_id = ? AND row = 4').run(importId);
    const page = (await client.request('GET', path)).text;
    assert.ok(page.includes('ist keine E-Mail-Adresse (wie name@example.com)'), 'the stored reason, in German');
    assert.ok(page.includes('gleiche E-Mail-Adresse wie Zeile 2'), 'the older row, from its English');
    assert.doesNotMatch(page, /was refused for its address|same email as row/);
    const report = parse((await client.request('GET', `${path}/report.csv`)).text.replace(/^\uFEFF/, '')) as string[][];
    assert.deepEqual(report.slice(1).map((r) => r.slice(0, 4)), [
      ['2', 'angelegt', '', ''],
      ['3', 'abgelehnt', 'Email', 'ist keine E-Mail-Adresse (wie name@example.com)'],
      ['4', 'abgelehnt', 'Email', 'gleiche E-Mail-Adresse wie Zeile 2'],
    ]);
  });
});
