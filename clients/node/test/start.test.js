// startFake against the real binary (SYNAPSEFAKE_BIN) and against scripts
// that fail as a broken binary would; connect; platforms and their errors.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { startFake, connect, ControlError, Platform } = require('synapsefake');
const { tempDir, script, realBinary, needsBinary } = require('./helpers.js');

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a binary that exits before its banner: the error holds its status and its output', async (t) => {
  const bin = script(tempDir(t), 'synapsefake', 'echo "listen tcp: address already in use" >&2\nexit 3');
  const err = await startFake({ bin }).then(() => null, (e) => e);
  assert.ok(err, 'startFake resolved');
  assert.match(err.message, /exited \(status 3\) before its banner/);
  assert.match(err.message, /its output:\nlisten tcp: address already in use/);
  assert.match(err.message, /-addr 127\.0\.0\.1:0 -clock manual -start default -quiet/);
  assert.equal(err.log, 'listen tcp: address already in use\n');
  assert.deepEqual(err.binary, { path: bin, source: 'option', tried: [`the bin option=${bin}`] });
});

test('an unknown option is refused before anything starts', async () => {
  await assert.rejects(startFake({ binary: '/bin/true' }), /^TypeError: startFake: unknown option binary; the options are bin, clock/);
});

test('a first line that is not the banner: the error says so, with the output', async (t) => {
  const bin = script(tempDir(t), 'synapsefake', 'echo "something else"\nsleep 5');
  const err = await startFake({ bin }).then(() => null, (e) => e);
  assert.match(err.message, /its first line is not "synapsefake serving URL"; its output:\nsomething else/);
});

test('no banner within the timeout: the error says how long it waited, and the process is killed', async (t) => {
  const dir = tempDir(t);
  const bin = script(dir, 'synapsefake', `echo $$ > ${dir}/pid\necho "starting..." >&2\nexec sleep 30`);
  const err = await startFake({ bin, timeout: 300 }).then(() => null, (e) => e);
  assert.match(err.message, /no banner within 300 ms; its output:\nstarting\.\.\./);
  const pid = Number(require('node:fs').readFileSync(`${dir}/pid`, 'utf8'));
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(alive(pid), false, 'the binary still runs');
});

test('a banner but no answer: the error names the URL it asked', async (t) => {
  const bin = script(tempDir(t), 'synapsefake', 'echo "synapsefake serving http://127.0.0.1:9/v3.1"\nexec sleep 30');
  const err = await startFake({ bin, timeout: 1000 }).then(() => null, (e) => e);
  assert.match(err.message, /printed its banner but http:\/\/127\.0\.0\.1:9\/_fake\/clock did not answer/);
});

test('the real binary with a bad flag: the error holds the binary\'s own complaint', needsBinary, async () => {
  const err = await startFake({ bin: realBinary, args: ['-clock', 'sometimes'] }).then(() => null, (e) => e);
  assert.match(err.message, /exited \(status \d+\) before its banner/);
  assert.match(err.log, /sometimes/);
});

test('startFake: a URL, timings, a log; stop() ends the process', needsBinary, async () => {
  const fake = await startFake({ start: 'default', quiet: false });
  assert.match(fake.url, /^http:\/\/127\.0\.0\.1:\d+\/v3\.1$/);
  assert.equal(fake.controlUrl, fake.url.replace('/v3.1', '/_fake'));
  assert.equal(fake.binary.source, 'SYNAPSEFAKE_BIN');
  assert.ok(fake.timings.banner > 0 && fake.timings.ready >= fake.timings.banner, JSON.stringify(fake.timings));
  assert.equal(await fake.control.nowMs(), Date.parse('2026-04-14T10:00:00-04:00'));
  assert.match(fake.log, /^synapsefake serving http/);
  await fake.control.addUser({});
  // The request log (not -quiet) reaches the log.
  for (let i = 0; i < 50 && !/\/_fake\/users/.test(fake.log); i++) await new Promise((r) => setTimeout(r, 20));
  assert.match(fake.log, /\/_fake\/users/);
  await fake.stop();
  assert.equal(alive(fake.pid), false);
  await fake.stop(); // again: nothing to do
});

test('startFake names the package to the binary: its start-up line for the clock is Node\'s call', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  assert.match(fake.log, /\n {2}platform\.control\.advance\('24h'\) {3}# moves a platform's clock in a test/);
  assert.doesNotMatch(fake.log, /curl -X POST/);
});

test('platforms: isolated, their own gateway and clock; delete() refuses the gateway after', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const a = await fake.createPlatform({ name: 'A', clientId: 'client_a', clientSecret: 'secret_a', start: new Date('2026-01-06T15:00:00Z') });
  const b = await fake.createPlatform({ start: 'default' });
  assert.ok(a instanceof Platform);
  assert.deepEqual([a.clientId, a.clientSecret, a.gateway, a.name, a.baseUrl], ['client_a', 'secret_a', 'client_a|secret_a', 'A', fake.url]);
  assert.equal(a.controlUrl, `${fake.controlUrl}/platforms/client_a`);
  assert.equal(await a.control.nowMs(), Date.parse('2026-01-06T15:00:00Z'));
  assert.ok(a.createdIn > 0);

  const user = await a.control.addUser({ legal_names: ['Only In A'] });
  assert.deepEqual((await a.control.users()).map((u) => u._id), [user._id]);
  assert.deepEqual(await b.control.users(), []);
  const before = await b.control.nowMs();
  await a.control.advance('48h');
  assert.equal(await b.control.nowMs(), before);

  const list = (p) => fetch(`${p.baseUrl}/users`, { headers: { 'X-SP-GATEWAY': p.gateway } });
  assert.equal((await (await list(a)).json()).users.length, 1);
  await a.delete();
  assert.equal((await list(a)).status, 401);
  await a.delete(); // gone already: resolves
  await b.delete();
});

test('a refusal is a ControlError with errorCode, httpCode and the reason', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  await fake.createPlatform({ clientId: 'twice' });
  const err = await fake.createPlatform({ clientId: 'twice' }).then(() => null, (e) => e);
  assert.ok(err instanceof ControlError);
  assert.deepEqual([err.status, err.errorCode, err.httpCode, err.code], [409, '410', '409', 'platform_exists']);
  assert.ok(err.reason.length > 0);
  assert.equal(err.message, `POST /_fake/platforms: HTTP 409, error_code 410, platform_exists: ${err.reason}`);
  const bad = await fake.createPlatform({ clock: 'sometimes' }).then(() => null, (e) => e);
  assert.deepEqual([bad.errorCode, bad.code], ['200', 'invalid_clock']);
  await assert.rejects(fake.createPlatform({ client_id: 'x' }), /unknown option client_id/);
});

test('connect: platforms on a fake already running, nothing spawned', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  for (const url of [fake.url, fake.url.replace('/v3.1', ''), fake.controlUrl]) {
    const other = connect(url);
    assert.deepEqual([other.url, other.controlUrl], [fake.url, fake.controlUrl]);
    const p = await other.createPlatform();
    assert.deepEqual(await p.control.users(), []);
    await p.delete();
    await other.stop(); // nothing to stop
    assert.ok(alive(fake.pid));
  }
  const saved = process.env.SYNAPSEFAKE_URL;
  process.env.SYNAPSEFAKE_URL = fake.url;
  try {
    assert.equal(connect().url, fake.url);
    delete process.env.SYNAPSEFAKE_URL;
    assert.throws(() => connect(), /connect needs the fake's URL .*SYNAPSEFAKE_URL/);
  } finally {
    if (saved !== undefined) process.env.SYNAPSEFAKE_URL = saved;
  }
});

test('a platform\'s document reviews: reviewDocument, reviewDocuments, a refusal', needsBinary, async (t) => {
  const fake = await startFake();
  t.after(() => fake.stop());
  const p = await fake.createPlatform();
  const user = await p.control.addUser({
    documents: [
      { kind: 'virtual', type: 'SSN', value: '2222', status: 'REVIEWING' },
      { kind: 'physical', type: 'GOVT_ID', value: 'data:image/png;base64,SUQ=', status: 'REVIEWING' },
    ],
  });
  const subs = Object.fromEntries(user.documents[0].sub_documents.map((sd) => [sd.kind, sd]));
  assert.deepEqual([subs.virtual.status, subs.physical.status], ['SUBMITTED|REVIEWING', 'SUBMITTED|REVIEWING']);
  assert.equal((await p.control.reviewDocument(user._id, subs.virtual.id, 'VALID')).permission, 'RECEIVE');
  const err = await p.control.reviewDocument(user._id, subs.physical.id, 'GREAT').then(() => null, (e) => e);
  assert.ok(err instanceof ControlError);
  assert.deepEqual([err.status, err.errorCode, err.httpCode, err.code], [400, '200', '400', 'invalid_status']);
  assert.equal(err.path, `/_fake/platforms/${p.clientId}/users/${user._id}/documents/${subs.physical.id}/review`);
  await assert.rejects(p.control.reviewDocuments(user._id, 'GREAT'), { code: 'invalid_status' });
  assert.equal((await p.control.user(user._id)).permission, 'RECEIVE');
  const after = await p.control.reviewDocuments(user._id, 'VALID');
  assert.deepEqual([after.permission, after.documents[0].permission_scope], ['SEND-AND-RECEIVE', 'SEND|RECEIVE|1000|DAILY']);
  assert.deepEqual(after.permission_history.map((h) => h.permission), ['UNVERIFIED', 'RECEIVE', 'SEND-AND-RECEIVE']);
  await p.delete();
});
