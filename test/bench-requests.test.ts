import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestsOf, type BenchApp, type Scenario } from '../bench/scenarios';

// A scenario that creates something (a customer) builds its ids from the request's number: the
// measured run must go on numbering after the warm-up, or it re-sends the warm-up's ids and
// measures a match instead of a write.

const appNamed = (tag: string) => ({ tag }) as BenchApp;
const scenarioNamed = (name: string): Scenario => ({
  name,
  floor: 'write',
  expectStatus: 201,
  request: (app, i) => ({ method: 'POST', path: `/${name}/${app.tag}-${i}` }),
});

describe('requestsOf', () => {
  const enroll = scenarioNamed('enroll');
  const earn = scenarioNamed('earn');
  const one = appNamed('one');
  const two = appNamed('two');
  const run = (app: BenchApp, scenario: Scenario, count: number) => {
    const next = requestsOf(app, scenario);
    return Array.from({ length: count }, () => next().path);
  };

  const cases: { name: string; app: BenchApp; scenario: Scenario; count: number; paths: string[] }[] = [
    { name: 'a first run numbers from 0', app: one, scenario: enroll, count: 3, paths: ['/enroll/one-0', '/enroll/one-1', '/enroll/one-2'] },
    { name: 'the next run of the same scenario on the same app goes on', app: one, scenario: enroll, count: 2, paths: ['/enroll/one-3', '/enroll/one-4'] },
    { name: 'another scenario on that app numbers on its own', app: one, scenario: earn, count: 2, paths: ['/earn/one-0', '/earn/one-1'] },
    { name: 'another app numbers on its own', app: two, scenario: enroll, count: 1, paths: ['/enroll/two-0'] },
    { name: 'and the first app still goes on', app: one, scenario: enroll, count: 1, paths: ['/enroll/one-5'] },
  ];
  // In order: each case continues the ones before it.
  for (const c of cases) it(c.name, () => assert.deepEqual(run(c.app, c.scenario, c.count), c.paths));
});
