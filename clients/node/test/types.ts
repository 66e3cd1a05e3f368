// Type-checked by ci.sh (tsc --noEmit --strict) against the installed package:
// every public declaration used once, as a test suite would. Never run.
import { startFake, connect, ControlError, findBinary, DEFAULT_START_TIME, type Platform, type PlatformDefaults, type DocumentSeed, type SubDocument, type RecentStatus } from 'synapsefake';
import { usePlatform as jestPlatform, globalSetup, reportFailure as jestReport } from 'synapsefake/jest';
import { test, testWith, usePlatform, fakeInfo, reportFailure } from 'synapsefake/vitest';
import { setup, teardown } from 'synapsefake/vitest/setup';
import jestSetup = require('synapsefake/jest/setup');

async function main() {
  const fake = await startFake({ clock: 'manual', start: new Date() });
  const p: Platform = await fake.createPlatform({ clientId: 'x', seed: 1 });
  const u = await p.control.addUser({ legal_names: ['A'] });
  const n = await p.control.addNode(u._id, { nickname: 'c' });
  const docs: DocumentSeed[] = [{ kind: 'virtual', type: 'SSN', value: '2222', status: 'REVIEWING' }];
  const k = await p.control.addUser({ documents: docs });
  const sub: SubDocument = k.documents![0].sub_documents[0];
  const reviewed = await p.control.reviewDocument(k._id, sub.id, 'VALID');
  const scope: string = (await p.control.reviewDocuments(k._id, 'VALID')).documents![0].permission_scope;
  const by: string = reviewed.permission_history![0].by;
  const reviewAt: number | null = sub.review_at;
  const key: string = await p.control.oauthKey(u._id, 'fp');
  await p.control.fund(n._id, 100);
  const t = await p.control.settle('x');
  await p.control.returnTransaction(t._id, 'R01');
  const recent: RecentStatus | undefined = t.recent_status;
  const recentStatus: string | undefined = t.recent_status?.status;
  console.log(recent?.code, recentStatus, t.status);
  const ms: number = (await p.control.advance('24h')).getTime() + await p.control.nowMs();
  const hooks = await p.control.webhooks();
  const h = await p.control.waitWebhook({ objectId: n._id, function: 'NODES|POST', status: 'x', timeout: 1000 });
  try { await p.control.settle('x'); } catch (e) { if (e instanceof ControlError) console.log(e.errorCode, e.httpCode, e.reason); }
  await p.delete();
  console.log(fake.timings.banner, fake.binary.source, findBinary().tried, key, ms, hooks.length, h.object_id, scope, by, reviewAt);
  const c = connect(fake.url, { start: 'default', clock: 'manual', timeout: 1000 });
  const defaults: PlatformDefaults = c.platformDefaults;
  const made = await c.createPlatform();
  const startedAt: number = made.createdAt - DEFAULT_START_TIME;
  const report: string = await made.requestsReport();
  await reportFailure(undefined, made);
  await jestReport(made);
  console.log(defaults.start, defaults.clock, startedAt, report, fakeInfo().platformDefaults?.clock);
  await fake.stop();
  globalSetup({ start: 'default' });
  jestPlatform().control.now();
  usePlatform().gateway;
  fakeInfo().url;
  await setup({ provide: () => {} });
  await teardown();
  await jestSetup();
  test('x', async ({ platform }) => { await platform.control.now(); });
  testWith({ start: new Date(0), clock: 'manual' })('y', async ({ platform, platformOptions }) => {
    const d: Date = await platform.control.now();
    const ms: number = await platform.control.nowMs() + (await platform.control.advance(1000)).getTime();
    console.log(d, ms, platformOptions.start);
  });
}
void main;
