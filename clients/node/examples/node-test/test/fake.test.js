// synapsefake with node:test: one binary for this file (startFake in
// before), a platform of its own for each test (withPlatform), so the
// tests can run concurrently without seeing each other.
'use strict';

const { test, before, after, describe } = require('node:test');
const assert = require('node:assert/strict');
const { startFake, ControlError } = require('synapsefake');
const { api, signUp, twoNodes, pay, median } = require('./api.js');

let fake;
// How long each test waited for its platform: made one at a time, or while
// other tests ran (the isolation tests below), which also waited for those
// tests' work on the one event loop they share.
const platformTimes = [];
const concurrentTimes = [];

before(async () => {
  const t0 = performance.now();
  fake = await startFake();
  const total = performance.now() - t0;
  const { banner, ready } = fake.timings;
  console.log(`synapsefake: binary from ${fake.binary.source} (${fake.binary.path})`);
  console.log(`synapsefake: spawn to banner ${banner.toFixed(1)} ms, spawn to ready ${ready.toFixed(1)} ms: ` +
    `starting costs ${(ready - banner).toFixed(1)} ms beyond the binary's own start (startFake() took ${total.toFixed(1)} ms)`);
});

after(async () => {
  console.log(`synapsefake: a fresh platform per test: median ${median(platformTimes).toFixed(2)} ms over ${platformTimes.length} platforms made one at a time [${platformTimes.map((x) => x.toFixed(1))}]; ` +
    `${concurrentTimes.length} more made while other tests ran: median ${median(concurrentTimes).toFixed(2)} ms`);
  await fake.stop();
});

// withPlatform wraps a test: a fresh platform, deleted after it. Like
// every platform it starts at the Go tests' instant (DEFAULT_START_TIME, a
// Tuesday 10:00 ET) on a manual clock, whatever the day the suite runs.
// times notes how long the platform took to make.
function withPlatform(fn, times = platformTimes) {
  return async (t) => {
    const platform = await fake.createPlatform();
    times.push(platform.createdIn);
    try {
      await fn(t, platform);
    } finally {
      await platform.delete();
    }
  };
}

test('sign-up over HTTP: POST /users, then POST /oauth/{user_id} with the refresh token', withPlatform(async (t, platform) => {
  const { user, key } = await signUp(platform);
  assert.equal(user.permission, 'UNVERIFIED');
  assert.match(key, /\S/);
  const seen = await platform.control.user(user._id);
  assert.deepEqual(seen.legal_names, ['Ann Example']);
}));

test('a settled ACH: a day later the debit is SETTLED and a webhook said so', withPlatform(async (t, platform) => {
  const { user, userHeader } = await signUp(platform);
  const { checking, landlord } = await twoNodes(platform, user, userHeader);
  await platform.control.fund(checking, 2500);
  const tx = await pay(platform, user, userHeader, checking, landlord, 10.0);
  assert.equal(tx.recent_status.status, 'CREATED');
  await platform.control.advance('24h');
  assert.equal((await platform.control.transaction(tx._id)).status, 'SETTLED');
  assert.equal((await platform.control.node(checking)).balance_cents, 1500);
  const hook = await platform.control.waitWebhook({ objectId: tx._id, status: 'SETTLED' });
  assert.equal(hook.object_type, 'TRAN');
}));

test('a return: R01 after settling gives the money back', withPlatform(async (t, platform) => {
  const { user, userHeader } = await signUp(platform);
  const { checking, landlord } = await twoNodes(platform, user, userHeader);
  await platform.control.fund(checking, 2500);
  const tx = await pay(platform, user, userHeader, checking, landlord, 10.0);
  await platform.control.settle(tx._id);
  const returned = await platform.control.returnTransaction(tx._id, 'R01');
  assert.deepEqual([returned.status, returned.code], ['RETURNED', 'R01']);
  assert.equal((await platform.control.node(checking)).balance_cents, 2500);
  const r = await api(platform, 'GET', `/users/${user._id}/nodes/${checking}/trans/${tx._id}`, { user: userHeader });
  assert.equal(r.body.recent_status.status, 'RETURNED');
}));

test('the MFA path: forceMFA, then 202 / "10", a phone number, the PIN', withPlatform(async (t, platform) => {
  const { user } = await signUp(platform);
  await platform.control.forceMFA(user._id);
  const body = { refresh_token: user.refresh_token };
  const asked = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body });
  assert.deepEqual([asked.status, asked.body.error_code], [202, '10']);
  const sent = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body: { ...body, phone_number: '901.111.1111' } });
  assert.equal(sent.status, 202);
  const pin = await platform.control.mfaPin(user._id);
  const signedIn = await api(platform, 'POST', `/oauth/${user._id}`, { user: '|device-1', body: { ...body, validation_pin: pin } });
  assert.equal(signedIn.status, 200);
  assert.match(signedIn.body.oauth_key, /\S/);
}));

test('a webhook: the node an app made over HTTP is a NODES|POST webhook', withPlatform(async (t, platform) => {
  const { user, userHeader } = await signUp(platform);
  const { checking } = await twoNodes(platform, user, userHeader);
  const hook = await platform.control.waitWebhook({ objectId: checking, function: 'NODES|POST' });
  assert.equal(hook.object_type, 'NODE');
  assert.ok((await platform.control.webhooks()).some((w) => w.object_id === user._id && w.function === 'USERS|POST'));
}));

describe('isolation: tests running at once each have a platform of their own', { concurrency: true }, () => {
  for (const name of ['first', 'second']) {
    test(`the ${name} test's user is the only user GET /users shows`, withPlatform(async (t, platform) => {
      const { user } = await signUp(platform);
      const r = await api(platform, 'GET', '/users');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.users.map((u) => u._id), [user._id]);
    }, concurrentTimes));
  }

  let advanced;
  const advancedOnce = new Promise((resolve) => { advanced = resolve; });
  test('a test advances its clock 24 hours', withPlatform(async (t, platform) => {
    const before = await platform.control.nowMs();
    assert.deepEqual(await platform.control.advance('24h'), new Date(before + 24 * 3600 * 1000));
    advanced();
  }, concurrentTimes));
  test('another test\'s clock did not move', withPlatform(async (t, platform) => {
    const before = await platform.control.nowMs();
    await advancedOnce;
    assert.equal(await platform.control.nowMs(), before);
  }, concurrentTimes));
});

test('a failing control call says why: errorCode, httpCode and the reason', withPlatform(async (t, platform) => {
  const err = await platform.control.settle('0123456789abcdef01234567').then(() => null, (e) => e);
  assert.ok(err instanceof ControlError);
  assert.deepEqual([err.errorCode, err.httpCode, err.code], ['404', '404', 'unable_to_locate_transaction']);
  assert.match(err.reason, /transaction/i);
  assert.match(err.message, /404.*unable_to_locate_transaction/);
}));
