import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createGoogleTokenSource, WALLET_OBJECT_SCOPE } from '../../src/wallet/google/oauth';
import { loyaltyObjectUpdate, patchLoyaltyObject, walletResourceId } from '../../src/wallet/google/objects';
import { parseServiceAccount, type GoogleServiceAccount } from '../../src/wallet/google/service-account';
import { createFakeClock } from '../support/fakes';
import { createServiceAccount, startFakeGoogle, unusedPort, verifyRs256Jwt, type FakeGoogle, type ServiceAccountFixture } from '../support/wallet-fixtures';

let google: FakeGoogle;
let fixture: ServiceAccountFixture;
let serviceAccount: GoogleServiceAccount;

before(async () => {
  google = await startFakeGoogle();
  fixture = createServiceAccount(google.tokenUri);
  serviceAccount = parseServiceAccount(fixture.json);
});
after(() => google.close());
afterEach(() => {
  google.requests.length = 0;
  google.setTokenAnswer({ status: 200, expiresIn: 3600 });
  google.setObjectStatus(200);
});

const fakeClock = () => createFakeClock(1_700_000_000_000);

describe('Google OAuth token source', () => {
  test('posts a JWT-bearer grant signed by the service account to token_uri', async () => {
    const clock = fakeClock();
    const tokens = createGoogleTokenSource({ serviceAccount, now: clock.now });
    assert.equal(await tokens.getToken(), 'token-1');
    const [request] = google.tokenRequests();
    assert.equal(request!.method, 'POST');
    assert.equal(request!.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(request!.body);
    assert.equal(form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { claims } = verifyRs256Jwt(form.get('assertion')!, fixture.publicKey);
    assert.deepEqual(claims, {
      iss: fixture.json.client_email,
      scope: WALLET_OBJECT_SCOPE,
      aud: google.tokenUri,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
  });

  test('caches the token until shortly before expiry, then fetches a new one', async () => {
    const clock = fakeClock();
    const issuedBefore = google.tokensIssued();
    const tokens = createGoogleTokenSource({ serviceAccount, now: clock.now, refreshMarginMs: 60_000 });
    const first = await tokens.getToken();
    clock.advance(3_600_000 - 60_001); // still more than the margin left
    assert.equal(await tokens.getToken(), first);
    assert.equal(google.tokensIssued() - issuedBefore, 1);
    clock.advance(2); // now within the margin
    const second = await tokens.getToken();
    assert.notEqual(second, first);
    assert.equal(google.tokensIssued() - issuedBefore, 2);
    assert.equal(await tokens.getToken(), second);
    assert.equal(google.tokensIssued() - issuedBefore, 2);
  });

  test('concurrent callers share one grant', async () => {
    const tokens = createGoogleTokenSource({ serviceAccount, now: fakeClock().now });
    const got = await Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()]);
    assert.equal(new Set(got).size, 1);
    assert.equal(google.tokenRequests().length, 1);
  });

  test('invalidate() forces a new grant (after a 401 from the API)', async () => {
    const tokens = createGoogleTokenSource({ serviceAccount, now: fakeClock().now });
    const first = await tokens.getToken();
    tokens.invalidate();
    assert.notEqual(await tokens.getToken(), first);
    assert.equal(google.tokenRequests().length, 2);
  });

  test('a refused grant rejects with Google error text, is not retried and is not cached', async () => {
    const tokens = createGoogleTokenSource({ serviceAccount, now: fakeClock().now, retryMinMs: 1 });
    google.setTokenAnswer({ status: 400 });
    const before = google.tokenRequests().length;
    await assert.rejects(tokens.getToken(), /Google token request failed \(400\): invalid_grant: Invalid JWT Signature\./);
    assert.equal(google.tokenRequests().length - before, 1, 'a 4xx is a setting to fix: asked once');
    google.setTokenAnswer({ status: 200, expiresIn: 3600 });
    assert.match(await tokens.getToken(), /^token-\d+$/);
  });

  test('a passing failure (503) is retried twice in process before the grant fails', async () => {
    const tokens = createGoogleTokenSource({ serviceAccount, now: fakeClock().now, retryMinMs: 1 });
    google.setTokenAnswer({ status: 503 });
    const before = google.tokenRequests().length;
    await assert.rejects(tokens.getToken(), /Google token request failed \(503\)/);
    assert.equal(google.tokenRequests().length - before, 3);
    google.setTokenAnswer({ status: 200, expiresIn: 3600 });
  });

  test('an unreachable token endpoint rejects', async () => {
    const unreachable = { ...serviceAccount, tokenUri: `http://127.0.0.1:${await unusedPort()}/token` };
    const tokens = createGoogleTokenSource({ serviceAccount: unreachable, now: fakeClock().now, retryMinMs: 1 });
    await assert.rejects(tokens.getToken(), /fetch failed/);
  });
});

describe('PATCH loyaltyObject', () => {
  const objectId = walletResourceId('3388000000012345678', 'cus_01HZX4');
  const patch = loyaltyObjectUpdate({ points: { label: 'Credit', balance: { string: '12.50' } } });

  test('sends the new balance with the bearer token to the objects API', async () => {
    const tokens = createGoogleTokenSource({ serviceAccount, now: fakeClock().now });
    const accessToken = await tokens.getToken();
    const result = await patchLoyaltyObject({ objectId, patch, accessToken, baseUrl: google.baseUrl });
    assert.equal(result.status, 200);
    const [request] = google.objectRequests();
    assert.equal(request!.method, 'PATCH');
    assert.equal(request!.path, `/walletobjects/v1/loyaltyObject/${objectId}`);
    assert.equal(request!.headers.authorization, `Bearer ${accessToken}`);
    assert.equal(request!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request!.body), {
      loyaltyPoints: { label: 'Credit', balance: { string: '12.50' } },
    });
    assert.deepEqual(result.body, { id: objectId, ...JSON.parse(request!.body) });
  });

  test('404 (object not saved yet) is passed through, not thrown', async () => {
    google.setObjectStatus(404);
    const result = await patchLoyaltyObject({ objectId, patch, accessToken: 't', baseUrl: google.baseUrl });
    assert.equal(result.status, 404);
    assert.deepEqual(result.body, { error: { code: 404, message: 'fake status 404' } });
  });

  test('other answers are reported too; only the network rejects', async () => {
    google.setObjectStatus(401);
    assert.equal((await patchLoyaltyObject({ objectId, patch, accessToken: 'stale', baseUrl: google.baseUrl })).status, 401);
    await assert.rejects(
      patchLoyaltyObject({ objectId, patch, accessToken: 't', baseUrl: `http://127.0.0.1:${await unusedPort()}` }),
      /fetch failed/,
    );
  });
});
