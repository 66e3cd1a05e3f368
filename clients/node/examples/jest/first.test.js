// Each test gets a fresh platform from usePlatform (a beforeEach makes it,
// an afterEach deletes it), whichever worker runs this file.
const { usePlatform } = require('synapsefake/jest');
const { ControlError, DEFAULT_START_TIME } = require('synapsefake');

const platform = usePlatform(); // at DEFAULT_START_TIME, a manual clock

test('the first file\'s user is the only user GET /users shows', async () => {
  const res = await fetch(`${platform.baseUrl}/users`, {
    method: 'POST',
    headers: { 'X-SP-GATEWAY': platform.gateway, 'X-SP-USER': '|device-1', 'X-SP-USER-IP': '127.0.0.1', 'Content-Type': 'application/json' },
    body: JSON.stringify({ logins: [{ email: 'ann@example.com' }], phone_numbers: ['901.111.1111'], legal_names: ['Ann Example'] }),
  });
  const user = await res.json();
  const list = await fetch(`${platform.baseUrl}/users`, { headers: { 'X-SP-GATEWAY': platform.gateway } });
  expect((await list.json()).users.map((u) => u._id)).toEqual([user._id]);
});

test('the first file\'s clock moves alone', async () => {
  expect(await platform.control.nowMs()).toBe(DEFAULT_START_TIME);
  await platform.control.advance('24h');
  expect(await platform.control.nowMs()).toBe(Date.parse('2026-04-15T14:00:00Z'));
});

test('a failing control call says why', async () => {
  const err = await platform.control.settle('0123456789abcdef01234567').catch((e) => e);
  expect(err).toBeInstanceOf(ControlError);
  expect([err.errorCode, err.code]).toEqual(['404', 'unable_to_locate_transaction']);
});
