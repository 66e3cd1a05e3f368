// synapsefake with vitest: the globalSetup (vitest.config.js) started one
// binary; the test fixture gives each test that asks for { platform } a
// fresh platform of it, deleted after the test, so tests can run
// concurrently without seeing each other.
import { afterAll, describe, expect } from 'vitest';
import { ControlError, DEFAULT_START_TIME } from 'synapsefake';
import { fakeInfo, test, usePlatform } from 'synapsefake/vitest';
import { api, median, pay, signUp, twoNodes } from './api.js';

// How long each test waited for its platform: made one at a time, or while
// other tests ran (describe.concurrent below), which also waited for those
// tests' work on the one event loop they share.
const platformTimes = [];
const concurrentTimes = [];

afterAll(() => {
  const { timings, binary } = fakeInfo();
  console.log(`synapsefake: binary from ${binary.source} (${binary.path})`);
  console.log(`synapsefake: spawn to banner ${timings.banner.toFixed(1)} ms, spawn to ready ${timings.ready.toFixed(1)} ms: ` +
    `starting costs ${(timings.ready - timings.banner).toFixed(1)} ms beyond the binary's own start`);
  console.log(`synapsefake: a fresh platform per test: median ${median(platformTimes).toFixed(2)} ms over ${platformTimes.length} platforms made one at a time; ` +
    `${concurrentTimes.length} more made while other tests ran: median ${median(concurrentTimes).toFixed(2)} ms`);
});

// it is the fixture test, noting how long each platform took to make.
const it = test.extend({
  timed: [async ({ platform, task }, use) => {
    (task.concurrent ? concurrentTimes : platformTimes).push(platform.createdIn);
    await use(platform);
  }, { auto: true }],
});

it('sign-up over HTTP: POST /users, then POST /oauth/{user_id} with the refresh token', async ({ platform }) => {
  const { user, key } = await signUp(platform);
  expect(user.permission).toBe('UNVERIFIED');
  expect(key).toMatch(/\S/);
  expect((await platform.control.user(user._id)).legal_names).toEqual(['Ann Example']);
});

it('the fixture\'s platform starts at DEFAULT_START_TIME on a manual clock, whatever the day', async ({ platform }) => {
  expect(platform.createdAt).toBe(DEFAULT_START_TIME);
  expect(await platform.control.nowMs()).toBe(DEFAULT_START_TIME);
  expect((await platform.control.advance(1)).getTime()).toBe(DEFAULT_START_TIME + 1);
});

it('a settled ACH: $25 sent, a day later the debit is SETTLED and a webhook said so', async ({ platform }) => {
  const { user, userHeader } = await signUp(platform);
  const { checking, landlord } = await twoNodes(platform, user, userHeader);
  await platform.control.fund(checking, 5000);
  const tx = await pay(platform, user, userHeader, checking, landlord, 25.0);
  expect(tx.recent_status.status).toBe('CREATED');
  await platform.control.advance('24h');
  expect((await platform.control.transaction(tx._id)).status).toBe('SETTLED');
  expect((await platform.control.node(checking)).balance_cents).toBe(2500);
  const hook = await platform.control.waitWebhook({ objectId: tx._id, status: 'SETTLED' });
  expect(hook.object_type).toBe('TRAN');
});

it('a return: R01 after settling gives the money back', async ({ platform }) => {
  const { user, userHeader } = await signUp(platform);
  const { checking, landlord } = await twoNodes(platform, user, userHeader);
  await platform.control.fund(checking, 2500);
  const tx = await pay(platform, user, userHeader, checking, landlord, 10.0);
  await platform.control.settle(tx._id);
  const returned = await platform.control.returnTransaction(tx._id, 'R01');
  expect([returned.status, returned.code]).toEqual(['RETURNED', 'R01']);
  expect((await platform.control.node(checking)).balance_cents).toBe(2500);
  const r = await api(platform, 'GET', `/users/${user._id}/nodes/${checking}/trans/${tx._id}`, { user: userHeader });
  expect(r.body.recent_status.status).toBe('RETURNED');
});

it('the MFA path: forceMFA, then 202 / "10", a phone number, the PIN', async ({ platform }) => {
  const { user } = await signUp(platform);
  await platform.control.forceMFA(user._id);
  const body = { refresh_token: user.refresh_token };
  const asked = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body });
  expect([asked.status, asked.body.error_code]).toEqual([202, '10']);
  const sent = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body: { ...body, phone_number: '901.111.1111' } });
  expect(sent.status).toBe(202);
  const pin = await platform.control.mfaPin(user._id);
  const signedIn = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body: { ...body, validation_pin: pin } });
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.oauth_key).toMatch(/\S/);
});

it('a webhook: the node an app made over HTTP is a NODES|POST webhook', async ({ platform }) => {
  const { user, userHeader } = await signUp(platform);
  const { checking } = await twoNodes(platform, user, userHeader);
  const hook = await platform.control.waitWebhook({ objectId: checking, function: 'NODES|POST' });
  expect(hook.object_type).toBe('NODE');
  expect((await platform.control.webhooks()).some((w) => w.object_id === user._id && w.function === 'USERS|POST')).toBe(true);
});

describe.concurrent('isolation: tests running at once each have a platform of their own', () => {
  for (const name of ['first', 'second']) {
    it(`the ${name} test's user is the only user GET /users shows`, async ({ platform }) => {
      const { user } = await signUp(platform);
      const r = await api(platform, 'GET', '/users');
      expect(r.status).toBe(200);
      expect(r.body.users.map((u) => u._id)).toEqual([user._id]);
    });
  }

  let advanced;
  const advancedOnce = new Promise((resolve) => { advanced = resolve; });
  it('a test advances its clock 24 hours', async ({ platform }) => {
    const before = await platform.control.nowMs();
    expect((await platform.control.advance('24h')).getTime()).toBe(before + 24 * 3600 * 1000);
    advanced();
  });
  it('another test\'s clock did not move', async ({ platform }) => {
    const before = await platform.control.nowMs();
    await advancedOnce;
    expect(await platform.control.nowMs()).toBe(before);
  });
});

it('a failing control call says why: errorCode, httpCode and the reason', async ({ platform }) => {
  const err = await platform.control.settle('0123456789abcdef01234567').catch((e) => e);
  expect(err).toBeInstanceOf(ControlError);
  expect([err.errorCode, err.httpCode, err.code]).toEqual(['404', '404', 'unable_to_locate_transaction']);
  expect(err.reason).toMatch(/transaction/i);
  expect(err.message).toMatch(/404.*unable_to_locate_transaction/);
});

describe('usePlatform: a beforeEach makes the platform, an afterEach deletes it', () => {
  const platform = usePlatform();
  let previous;

  test('the first test makes a user', async () => {
    expect(await platform.control.nowMs()).toBe(DEFAULT_START_TIME);
    previous = platform.clientId;
    await platform.control.addUser({ legal_names: ['First'] });
    expect(await platform.control.users()).toHaveLength(1);
  });

  test('the next test has a new, empty platform; the last one is gone', async () => {
    expect(platform.clientId).not.toBe(previous);
    expect(await platform.control.users()).toEqual([]);
    const gone = await api({ baseUrl: platform.baseUrl, gateway: `${previous}|x` }, 'GET', '/users');
    expect(gone.status).toBe(401);
  });
});
