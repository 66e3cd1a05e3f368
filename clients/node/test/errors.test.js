// Errors that read well: a ControlError prints its reason once, however it
// is printed; the hints in its reason are Node's calls.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');
const { startFake, ControlError } = require('synapsefake');
const { needsBinary } = require('./helpers.js');

const count = (text, part) => text.split(part).length - 1;

test('a ControlError built from an envelope: its fields, its reason once in what inspect prints', () => {
  const reason = 'no webhook matched within 0s; the clock is frozen\npending on the clock, soonest first:\n  transaction t1 reaches SETTLED (call platform.control.advance(\'24h\'))';
  const err = new ControlError('POST', '/_fake/webhooks/wait', 404, { success: false, error_code: '404', http_code: '404', error: { code: 'no_matching_webhook', en: reason } });
  assert.deepEqual([err.status, err.errorCode, err.httpCode, err.code, err.reason, err.en], [404, '404', '404', 'no_matching_webhook', reason, reason]);
  assert.equal(err.envelope.error.en, reason);
  assert.equal(err.message, `POST /_fake/webhooks/wait: HTTP 404, error_code 404, no_matching_webhook: ${reason}`);
  for (const printed of [util.inspect(err), util.format('%s', err), String(err.stack)]) {
    assert.equal(count(printed, 'pending on the clock'), 1, printed);
  }
});

test('a failed wait over HTTP: the reason once, its hint platform.control.advance', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const platform = await fake.createPlatform();
  const c = platform.control;
  const user = await c.addUser({ fingerprint: 'device-1' });
  const from = await c.addNode(user._id, { balance_cents: 10_000 });
  const to = await c.addNode(user._id, { type: 'ACH-US', account_num: '123456786', routing_num: '051000017' });
  const key = await c.oauthKey(user._id, 'device-1');
  const res = await fetch(`${platform.baseUrl}/users/${user._id}/nodes/${from._id}/trans`, {
    method: 'POST',
    headers: { 'X-SP-GATEWAY': platform.gateway, 'X-SP-USER': `${key}|device-1`, 'X-SP-USER-IP': '127.0.0.1', 'Content-Type': 'application/json' },
    body: JSON.stringify({ to: { type: 'ACH-US', id: to._id }, amount: { amount: 25, currency: 'USD' }, extra: { ip: '127.0.0.1' } }),
  });
  const tx = await res.json();
  const err = await c.waitWebhook({ objectId: tx._id, status: 'SETTLED', timeout: '0s' }).then(() => null, (e) => e);
  assert.ok(err instanceof ControlError);
  assert.equal(err.code, 'no_matching_webhook');
  assert.match(err.reason, /reaches SETTLED at 2026-04-15T14:00:00Z \(Wed 10:00 EDT\) \(call platform\.control\.advance\('24h'\)\)/);
  assert.doesNotMatch(err.reason, /Advance\(/);
  const printed = util.inspect(err);
  assert.equal(count(printed, 'reaches SETTLED'), 1, printed);
  assert.ok(printed.split('\n').length < 30, `${printed.split('\n').length} lines:\n${printed}`);
});
