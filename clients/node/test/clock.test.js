// Every entry point that starts a fake or makes a platform starts it at
// DefaultStartTime on a manual clock unless told otherwise (issue 46,
// point 1): startFake, createPlatform on a started fake and on one connect
// reached, the vitest globalSetup and the jest globalSetup with usePlatform.
// The vitest fixtures run in examples/vitest (ci.sh), which checks them the
// same way.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const { startFake, connect, DEFAULT_START_TIME } = require('synapsefake');
const { realBinary, needsBinary } = require('./helpers.js');

// A binary started as a developer runs it: the wall clock, running.
async function wallClockBinary(t) {
  const child = childProcess.spawn(realBinary, ['-addr', '127.0.0.1:0', '-quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /^synapsefake serving (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the binary exited (${code}): ${out}`)));
  });
  child.stdout.resume();
  return url;
}

test('DEFAULT_START_TIME is the binary\'s -start default (Go\'s DefaultStartTime)', needsBinary, async (t) => {
  const fake = await startFake({ start: 'default' });
  t.after(() => fake.stop());
  assert.equal(DEFAULT_START_TIME, Date.parse('2026-04-14T14:00:00Z'));
  assert.equal(await fake.control.nowMs(), DEFAULT_START_TIME);
});

test('startFake(): the default platform starts at DefaultStartTime, manual; a new platform too', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  assert.deepEqual(fake.platformDefaults, { start: 'default', clock: 'manual' });
  assert.equal(await fake.control.nowMs(), DEFAULT_START_TIME);
  const p = await fake.createPlatform();
  assert.equal(p.createdAt, DEFAULT_START_TIME);
  assert.equal(await p.control.nowMs(), DEFAULT_START_TIME);
  // Manual: the clock moves by what advance says, never by itself.
  assert.deepEqual(await p.control.advance(1), new Date(DEFAULT_START_TIME + 1));
  assert.equal(await p.control.nowMs(), DEFAULT_START_TIME + 1);
  // The default platform's clock moving does not move where the next one starts.
  await fake.control.advance('72h');
  assert.equal((await fake.createPlatform()).createdAt, DEFAULT_START_TIME);
});

test('startFake({start, clock}): told otherwise, the fake and its platforms start there', needsBinary, async (t) => {
  const sunday = '2026-04-12T14:00:00Z';
  const fake = await startFake({ start: new Date(sunday) });
  t.after(() => fake.stop());
  assert.equal(await fake.control.nowMs(), Date.parse(sunday));
  assert.equal((await fake.createPlatform()).createdAt, Date.parse(sunday));
  assert.equal((await fake.createPlatform({ start: 'default' })).createdAt, DEFAULT_START_TIME);
  const real = await fake.createPlatform({ clock: 'real' });
  const t0 = await real.control.nowMs();
  assert.ok(t0 >= Date.parse(sunday), `${t0}`);
});

test('connect(): platforms on a wall-clock binary still start at DefaultStartTime, manual', needsBinary, async (t) => {
  const url = await wallClockBinary(t);
  const fake = connect(url);
  const wall = await fake.control.nowMs();
  assert.ok(Math.abs(wall - Date.now()) < 60_000, `the binary's own clock ${new Date(wall).toISOString()} is the wall clock`);
  const p = await fake.createPlatform();
  assert.equal(await p.control.nowMs(), DEFAULT_START_TIME);
  assert.deepEqual(await p.control.advance(0), new Date(DEFAULT_START_TIME));
  const told = connect(url, { start: '2026-01-06T15:00:00Z' });
  assert.equal((await told.createPlatform()).createdAt, Date.parse('2026-01-06T15:00:00Z'));
});

// The day a transfer is sent decides when it settles: $25 sent, then 24
// hours, is SETTLED from DefaultStartTime (a Tuesday) but not from a
// Sunday, which is what startFake() gave on a weekend when it started at
// the wall-clock time.
test('$25 and 24 hours: SETTLED from startFake()\'s platform on any day; not from a Sunday', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const sendAndWait = async (platform) => {
    const c = platform.control;
    const user = await c.addUser({ fingerprint: 'device-1' });
    const from = await c.addNode(user._id, { nickname: 'Checking', balance_cents: 10_000 });
    const to = await c.addNode(user._id, { type: 'ACH-US', nickname: 'Landlord', account_num: '123456786', routing_num: '051000017' });
    const key = await c.oauthKey(user._id, 'device-1');
    const res = await fetch(`${platform.baseUrl}/users/${user._id}/nodes/${from._id}/trans`, {
      method: 'POST',
      headers: { 'X-SP-GATEWAY': platform.gateway, 'X-SP-USER': `${key}|device-1`, 'X-SP-USER-IP': '127.0.0.1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: { type: 'ACH-US', id: to._id }, amount: { amount: 25, currency: 'USD' }, extra: { ip: '127.0.0.1' } }),
    });
    const tx = await res.json();
    assert.equal(res.status, 200, JSON.stringify(tx));
    await c.advance('24h');
    return (await c.transaction(tx._id)).status;
  };
  assert.equal(await sendAndWait(await fake.createPlatform()), 'SETTLED');
  assert.equal(await sendAndWait(await fake.createPlatform({ start: '2026-04-12T14:00:00Z' })), 'PROCESSING-CREDIT');
});

test('vitest globalSetup: the fake and the platformDefaults it provides are DefaultStartTime, manual', needsBinary, async () => {
  const { globalSetup } = await import('synapsefake/vitest/setup');
  const provided = {};
  const stop = await globalSetup()({ provide: (k, v) => { provided[k] = v; } });
  try {
    const info = provided.synapsefake;
    assert.deepEqual(info.platformDefaults, { start: 'default', clock: 'manual' });
    // What synapsefake/vitest's useFake does with it.
    const fake = connect(info.url, info.platformDefaults);
    assert.equal(await fake.control.nowMs(), DEFAULT_START_TIME);
    assert.equal((await fake.createPlatform()).createdAt, DEFAULT_START_TIME);
  } finally {
    await stop();
  }
});

test('jest: the globalSetup\'s fake and usePlatform\'s platforms start at DefaultStartTime, manual', needsBinary, async () => {
  const { globalSetup, globalTeardown, usePlatform } = require('synapsefake/jest');
  const saved = { url: process.env.SYNAPSEFAKE_URL, defaults: process.env.SYNAPSEFAKE_PLATFORM_DEFAULTS };
  await globalSetup()();
  try {
    const hooks = { before: [], after: [] };
    const platform = usePlatform(undefined, { beforeEach: (f) => hooks.before.push(f), afterEach: (f) => hooks.after.push(f) });
    for (const f of hooks.before) await f();
    assert.equal(await platform.control.nowMs(), DEFAULT_START_TIME);
    assert.equal(await connect(process.env.SYNAPSEFAKE_URL).control.nowMs(), DEFAULT_START_TIME);
    for (const f of hooks.after) await f();
  } finally {
    await globalTeardown();
    for (const [k, v] of [['SYNAPSEFAKE_URL', saved.url], ['SYNAPSEFAKE_PLATFORM_DEFAULTS', saved.defaults]]) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('now() and advance() answer Dates; nowMs() the ms; durations as a Go string or ms', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const p = await fake.createPlatform();
  const now = await p.control.now();
  assert.ok(now instanceof Date);
  assert.equal(now.toISOString(), '2026-04-14T14:00:00.000Z');
  assert.equal(await p.control.nowMs(), DEFAULT_START_TIME);
  assert.deepEqual(await p.control.advance('1h'), new Date(DEFAULT_START_TIME + 3_600_000));
  assert.deepEqual(await p.control.advance(1500), new Date(DEFAULT_START_TIME + 3_601_500));
  const nbd = await p.control.advanceToNextBusinessDay();
  assert.ok(nbd instanceof Date && nbd > now);
});
