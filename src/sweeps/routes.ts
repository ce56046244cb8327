import { ApiError } from '../lib/errors';
import { defineRoute, type Auth } from '../routing/route';
import { AdvanceTestClockBody, TestClockResource } from './schemas';
import { advanceTestClock, testClockNow } from './test-clock';

const testKeyOnly = (auth: Auth) => {
  if (auth.livemode) throw new ApiError(400, 'NOT_AVAILABLE_IN_LIVE_MODE', { detail: 'the test clock is the sandbox’s: use a test key (psk_test_…); live data keeps real time' });
};

export const testClockRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/test_clock',
    tag: 'Test clock',
    summary: 'Read the sandbox’s clock',
    description: 'Test keys only. The time the organisation’s test data lives in: real time plus how far the clock was advanced (it keeps ticking).',
    scope: 'customers:read',
    responses: { 200: { description: 'The test clock', schema: TestClockResource } },
    errors: { 400: ['NOT_AVAILABLE_IN_LIVE_MODE'] },
    handle: ({ deps, auth }) => {
      testKeyOnly(auth);
      return { status: 200, body: testClockNow(deps, auth.orgId) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/test_clock/advance',
    tag: 'Test clock',
    summary: 'Advance the sandbox’s clock and run what that time brings',
    description:
      'Test keys only. Moves the organisation’s test clock forward to `to` (never back), then runs every sweep over its test data as of that time before answering: ' +
      'units that expired (a ledger row of source `expiry` and balance.updated per customer), reminders of units about to expire, birthday treats (source `birthday`). ' +
      'Test awards made afterwards carry the new time. Live data and the removal of test customers 30 days after their creation keep real time. See docs/api.md for a worked example.',
    scope: 'loyalty:write',
    body: AdvanceTestClockBody,
    responses: { 200: { description: 'The test clock after the sweeps ran', schema: TestClockResource } },
    errors: { 400: ['NOT_AVAILABLE_IN_LIVE_MODE'] },
    handle: async ({ deps, auth, body }) => {
      testKeyOnly(auth);
      return { status: 200, body: await advanceTestClock(deps, auth.orgId, body.to) };
    },
  }),
];
