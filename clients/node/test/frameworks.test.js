// The vitest globalSetup and the jest globalSetup/globalTeardown, called as
// the runners call them; usePlatform with stand-in hooks.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { connect } = require('synapsefake');
const { needsBinary } = require('./helpers.js');

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('vitest: setup provides {url, controlUrl, timings, binary, platformDefaults}; teardown stops the binary', needsBinary, async () => {
  const { setup, teardown, globalSetup } = await import('synapsefake/vitest/setup');
  const provided = {};
  await setup({ provide: (k, v) => { provided[k] = v; } });
  const info = provided.synapsefake;
  assert.deepEqual(Object.keys(info).sort(), ['binary', 'controlUrl', 'platformDefaults', 'timings', 'url']);
  assert.equal(process.env.SYNAPSEFAKE_URL, info.url);
  assert.equal(typeof await connect(info.url).control.nowMs(), 'number');
  await teardown();
  await assert.rejects(connect(info.url).control.nowMs(), /^Error: GET \/_fake\/clock: .* \(is the fake at http:\/\/127\.0\.0\.1:\d+ running\?\)$/);

  const stop = await globalSetup({ start: 'default' })({ provide: (k, v) => { provided[k] = v; } });
  assert.equal(await connect(provided.synapsefake.url).control.nowMs(), Date.parse('2026-04-14T14:00:00Z'));
  await stop();
});

test('jest: the setup sets SYNAPSEFAKE_URL, usePlatform gives each test a platform, the teardown stops the binary', needsBinary, async () => {
  const setup = require('synapsefake/jest/setup');
  const teardown = require('synapsefake/jest/teardown');
  const { usePlatform } = require('synapsefake/jest');
  const saved = process.env.SYNAPSEFAKE_URL;
  await setup();
  try {
    const url = process.env.SYNAPSEFAKE_URL;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v3\.1$/);
    const hooks = { before: [], after: [] };
    const platform = usePlatform(undefined, { beforeEach: (f) => hooks.before.push(f), afterEach: (f) => hooks.after.push(f) });
    assert.throws(() => platform.control, /read outside a test/);
    const ids = [];
    for (let i = 0; i < 2; i++) {
      for (const f of hooks.before) await f();
      ids.push(platform.clientId);
      await platform.control.addUser({});
      assert.equal((await platform.control.users()).length, 1);
      for (const f of hooks.after) await f();
    }
    assert.notEqual(ids[0], ids[1]);
    const left = (await connect(url).control.call('GET', 'platforms')).platforms.map((p) => p.client_id);
    assert.deepEqual(left.filter((id) => ids.includes(id)), [], 'the afterEach deleted them');
  } finally {
    await teardown();
    if (saved === undefined) delete process.env.SYNAPSEFAKE_URL;
    else process.env.SYNAPSEFAKE_URL = saved;
  }
});

test('jest: usePlatform without SYNAPSEFAKE_URL says what to configure', async () => {
  const { useFake } = require('synapsefake/jest');
  const saved = process.env.SYNAPSEFAKE_URL;
  delete process.env.SYNAPSEFAKE_URL;
  try {
    assert.throws(() => useFake(), /SYNAPSEFAKE_URL is not set: add globalSetup: 'synapsefake\/jest\/setup'/);
  } finally {
    if (saved !== undefined) process.env.SYNAPSEFAKE_URL = saved;
  }
});
