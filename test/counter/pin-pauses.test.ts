// Pauses after wrong PINs, against a stranger with fresh cookies: wrong PINs are
// counted per device, per client address and per org, and the address and org pauses stop only
// devices new to the counter. The shop's own devices (unlocked by staff lately) keep unlocking. Behind a proxy (TRUST_PROXY), so each client has its own address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app';
import { ConsoleClient, startTestApp } from '../support/console';
import { CounterClient } from './client';
import { seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
});
after(() => app?.close());

const MINUTE = 60_000;
const SHOP_WIFI = '198.51.100.10';

/** A browser at `address` that has never been to the counter (fresh device cookie). */
function newDevice(org: CounterOrg, address: string): CounterClient {
  const client = new CounterClient(app, org.orgId);
  client.forwardedFor = address;
  return client;
}

/** The shop's tablet: staff unlocked it on an earlier day, and its session has ended since. */
async function shopTablet(org: CounterOrg): Promise<CounterClient> {
  const tablet = newDevice(org, SHOP_WIFI);
  assert.equal((await tablet.unlock(STAFF[0]!.pin)).status, 303);
  assert.equal((await tablet.request('POST', `${tablet.base}/lock`, { form: { _csrf: tablet.csrf } })).status, 303);
  return tablet;
}

async function signedInOwner(org: CounterOrg): Promise<ConsoleClient> {
  const owner = new ConsoleClient(app);
  assert.equal((await owner.signIn(org.admin.email, org.admin.password)).status, 303);
  return owner;
}

async function liftPause(owner: ConsoleClient, name: RegExp): Promise<void> {
  const page = await owner.request('GET', '/console/staff');
  const form = [...page.text.matchAll(/<form method="post" action="\/console\/staff\/counter-pause"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => name.test(f));
  assert.ok(form, `a pause matching ${name} is listed`);
  const fields = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&')]));
  const res = await owner.request('POST', '/console/staff/counter-pause', { form: fields });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/console/staff?pause=lifted');
}

describe('counter: a stranger guessing PINs', () => {
  it('20 wrong PINs from fresh cookies pause new devices at that address only; the shop’s own devices keep unlocking', async () => {
    const org = await seedCounterOrg(app, 'Stranger Café');
    const tablet = await shopTablet(org);
    const till = newDevice(org, SHOP_WIFI);
    assert.equal((await till.unlock(STAFF[0]!.pin)).status, 303, 'the till is unlocked by Sam, and stays so');

    const answers: number[] = [];
    for (let i = 0; i < 20; i++) answers.push((await newDevice(org, SHOP_WIFI).unlock(`7${String(i).padStart(3, '0')}`)).status);
    assert.deepEqual(answers, [...Array<number>(9).fill(401), ...Array<number>(11).fill(429)], 'the tenth wrong PIN from one address pauses it');

    const stranger = await newDevice(org, SHOP_WIFI).unlock(STAFF[0]!.pin);
    assert.equal(stranger.status, 429, 'a new device at that address: paused, even with a right PIN');
    assert.match(stranger.text, /Too many wrong PINs from this network\. Unlocking is paused on devices new to this counter: try again in 15 minutes/);

    assert.equal((await tablet.unlock(STAFF[0]!.pin)).status, 303, 'the tablet staff unlocked before: not locked out');
    assert.equal((await till.request('POST', `${till.base}/lock`, { form: { _csrf: till.csrf } })).status, 303);
    assert.equal((await till.unlock(STAFF[1]!.pin)).status, 303, 'the till Sam was using: locked, then Alex unlocks it');
    assert.equal((await newDevice(org, '192.0.2.77').unlock(STAFF[0]!.pin)).status, 303, 'a new device elsewhere: the org is not paused');

    const owner = await signedInOwner(org);
    await liftPause(owner, new RegExp(`address:${SHOP_WIFI.replace(/\./g, '\\.')}`));
    assert.equal((await newDevice(org, SHOP_WIFI).unlock(STAFF[0]!.pin)).status, 303, 'lifted: a new device at that address unlocks');
  });

  it('wrong PINs from many addresses pause every new device of the org; the shop’s tablet still unlocks, and the owner can lift the pause', async () => {
    const org = await seedCounterOrg(app, 'Botnet Café');
    const tablet = await shopTablet(org);
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) answers.push((await newDevice(org, `203.0.113.${i + 1}`).unlock(`8${String(i).padStart(3, '0')}`)).status);
    assert.deepEqual(answers, [...Array<number>(19).fill(401), 429]);

    const newcomer = await newDevice(org, '192.0.2.200').unlock(STAFF[0]!.pin);
    assert.equal(newcomer.status, 429);
    assert.match(newcomer.text, /Too many wrong PINs at this shop’s counters\. Unlocking is paused on devices new to this counter/);
    assert.equal((await tablet.unlock(STAFF[0]!.pin)).status, 303, 'the shop’s tablet is not locked out');

    const owner = await signedInOwner(org);
    await liftPause(owner, /value="shop"/);
    assert.equal((await newDevice(org, '192.0.2.200').unlock(STAFF[0]!.pin)).status, 303);
  });

  it('a known device still answers for its own wrong PINs: its fifth pauses it', async () => {
    const org = await seedCounterOrg(app, 'Stolen Tablet Café');
    const tablet = await shopTablet(org);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await tablet.unlock(`6${String(i).padStart(3, '0')}`)).status);
    assert.deepEqual(answers, [401, 401, 401, 401, 429]);
    const paused = await tablet.unlock(STAFF[0]!.pin);
    assert.equal(paused.status, 429);
    assert.match(paused.text, /Too many wrong PINs on this device/);
  });

  it('a device staff last unlocked more than 30 days ago is new again', async () => {
    const org = await seedCounterOrg(app, 'Holiday Café');
    const tablet = await shopTablet(org);
    app.clock.advance(31 * 24 * 60 * MINUTE);
    for (let i = 0; i < 10; i++) await newDevice(org, SHOP_WIFI).unlock(`5${String(i).padStart(3, '0')}`);
    assert.equal((await tablet.unlock(STAFF[0]!.pin)).status, 429, 'after a month away the tablet is paused with the other new devices');
  });
});
