// synapsefake/vitest: each test its own platform of the fake the
// globalSetup (synapsefake/vitest/setup) started, either as a fixture:
//
//   import { test } from 'synapsefake/vitest';
//   test('signs up', async ({ platform }) => { ... platform.gateway ... });
//
// or with usePlatform, which registers a beforeEach and an afterEach:
//
//   import { usePlatform } from 'synapsefake/vitest';
//   const platform = usePlatform();
//   it('signs up', async () => { await platform.control.addUser({}); });
//
// Without the globalSetup, $SYNAPSEFAKE_URL names the fake to use. A test
// that fails gets its platform's requests as one more error, "synapsefake
// requests" (each refusal with the fake's reason), as the pytest plugin
// reports them; a test that passes gets nothing.
import { afterEach, beforeEach, inject, test as baseTest } from 'vitest';
import { connect } from './index.mjs';

let connected = null;

/**
 * Adds the platform's requests to a failed test's errors (vitest prints
 * each error of the test under it); a test that did not fail is left
 * alone.
 * @param {{result?: {state?: string, errors?: object[]}}} task vitest's test
 * @param {import('./index').Platform} platform
 */
export async function reportFailure(task, platform) {
  if (!task || !task.result || task.result.state !== 'fail') return;
  let text;
  try {
    text = await platform.requestsReport();
  } catch (err) {
    text = `(the request journal could not be read: ${err.message})`;
  }
  (task.result.errors ??= []).push({ name: 'synapsefake requests', message: text, stack: '' });
}

/**
 * What the globalSetup provided: {url, controlUrl, timings, binary,
 * platformDefaults}; or {url} from $SYNAPSEFAKE_URL. Neither: an Error
 * saying how to set it up.
 * @returns {{url: string, controlUrl?: string, timings?: {banner: number, ready: number}, binary?: {path: string, source: string}, platformDefaults?: {start: string, clock: 'manual'|'real'}}}
 */
export function fakeInfo() {
  let info;
  try {
    info = inject('synapsefake');
  } catch {
    info = undefined;
  }
  if (info && info.url) return info;
  if (process.env.SYNAPSEFAKE_URL) return { url: process.env.SYNAPSEFAKE_URL };
  throw new Error("synapsefake/vitest: no fake to use: add globalSetup: ['synapsefake/vitest/setup'] to vitest's test config, or set SYNAPSEFAKE_URL to a running fake's URL (docs/node.md)");
}

/**
 * The running fake (connect to fakeInfo().url), to make platforms on.
 * @returns {import('./index').Fake}
 */
export function useFake() {
  const { url, platformDefaults } = fakeInfo();
  if (!connected || connected.url !== url.replace(/\/+$/, '')) connected = connect(url, platformDefaults);
  return connected;
}

// warmUp connects to the fake (see connect) while vitest is still
// collecting the file's tests, so that its first test's platform does not
// open the connection; a missing fake is reported by the test that needs it.
function warmUp() {
  try {
    useFake();
  } catch {
    // no fake configured: the first test's createPlatform says so
  }
}

/**
 * Registers a beforeEach that makes a fresh platform (createPlatform(options))
 * and an afterEach that reports its requests if the test failed
 * (reportFailure), then deletes it. The object it returns stands for the
 * current test's platform: read its fields (baseUrl, gateway, control...)
 * inside a test or a hook that runs after the beforeEach.
 * @param {import('./index').PlatformOptions} [options]
 * @returns {import('./index').Platform}
 */
export function usePlatform(options) {
  warmUp();
  let current = null;
  beforeEach(async () => {
    current = await useFake().createPlatform(options);
  });
  // vitest reads the hook's first parameter for the fixtures it uses: an
  // object pattern, naming none but the test.
  afterEach(async ({ task }) => {
    const p = current;
    current = null;
    if (!p) return;
    await reportFailure(task, p);
    await p.delete();
  });
  return new Proxy({}, {
    get(_, name) {
      if (!current) throw new Error(`synapsefake/vitest: usePlatform's platform.${String(name)} read outside a test: the platform exists from its beforeEach to its afterEach`);
      const v = current[name];
      return typeof v === 'function' ? v.bind(current) : v;
    },
  });
}

// platformFixture makes the platform fixture: a fresh platform for the
// test, made with the fixture platformOptions, its requests reported if
// the test failed (after its afterEach hooks), deleted after it.
async function platformFixture({ task, platformOptions }, use) {
  const platform = await useFake().createPlatform(platformOptions);
  try {
    await use(platform);
    await reportFailure(task, platform);
  } finally {
    await platform.delete();
  }
}

// fixtures are the fixtures of a test whose platforms are made with options.
function fixtures(options) {
  // vitest reads the fixtures a function uses from its first parameter's
  // pattern: an empty one, none.
  // eslint-disable-next-line no-empty-pattern
  return { platformOptions: async ({}, use) => use(options), platform: platformFixture };
}

/**
 * vitest's test with a platform fixture: a fresh platform for each test
 * that asks for it ({ platform }), deleted after the test; a failed test
 * gets its requests reported (reportFailure). platformOptions, a fixture
 * too, are the options it was made with: none here, testWith's there.
 */
export const test = baseTest.extend(fixtures({}));

export const it = test;

/**
 * test, its platform made with options (createPlatform's: start, clock,
 * seed, name, clientId, clientSecret), as pytest's
 * @pytest.mark.synapsefake(...) sets a test's:
 *
 *   testWith({ start: '2026-04-18T10:00:00-04:00' })('on a Saturday', async ({ platform }) => { ... });
 *
 * @param {import('./index').PlatformOptions} options
 */
export function testWith(options) {
  // From vitest's test, both fixtures anew: a fixture keeps the
  // dependencies it was defined with, and test's platform would read
  // test's platformOptions.
  return baseTest.extend(fixtures({ ...options }));
}

// A test file imports this module before vitest collects its tests: the
// connection to the fake opens meanwhile (warmUp), for the platform
// fixture as for usePlatform.
warmUp();
