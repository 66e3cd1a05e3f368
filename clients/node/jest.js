// synapsefake/jest: jest's globalSetup and globalTeardown for one binary
// per run (synapsefake/jest/setup, synapsefake/jest/teardown), and
// usePlatform, which gives each test its own platform of it:
//
//   const { usePlatform } = require('synapsefake/jest');
//   const platform = usePlatform();
//   test('signs up', async () => { await platform.control.addUser({}); });
//
// The workers find the fake by process.env.SYNAPSEFAKE_URL, which the
// globalSetup sets before jest starts them. A test that fails gets its
// platform's requests as one more error, "synapsefake requests" (each
// refusal with the fake's reason), as the pytest plugin reports them; a
// test that passes gets nothing.
'use strict';

const { startFake, connect } = require('./index.js');

const KEY = Symbol.for('synapsefake.jest.fake');

/**
 * A jest globalSetup function that starts the binary with startFake(options)
 * and sets process.env.SYNAPSEFAKE_URL for the workers.
 * @param {import('./index').StartOptions} [options]
 * @returns {() => Promise<void>}
 */
function globalSetup(options = {}) {
  return async function synapsefakeGlobalSetup() {
    const fake = await startFake(options);
    globalThis[KEY] = fake;
    process.env.SYNAPSEFAKE_URL = fake.url;
    process.env.SYNAPSEFAKE_TIMINGS = JSON.stringify(fake.timings);
    process.env.SYNAPSEFAKE_BINARY_SOURCE = fake.binary.source;
    // The start and clock of the tests' platforms (DefaultStartTime, manual
    // unless options say otherwise), for usePlatform in the workers.
    process.env.SYNAPSEFAKE_PLATFORM_DEFAULTS = JSON.stringify(fake.platformDefaults);
  };
}

/**
 * The jest globalTeardown: stops the binary the globalSetup started.
 * @returns {Promise<void>}
 */
async function globalTeardown() {
  const fake = globalThis[KEY];
  globalThis[KEY] = undefined;
  if (fake) await fake.stop();
}

let connected = null;

/**
 * The test jest-circus runs now, whose errors say whether it failed: read
 * from circus's state, which jest keeps on the global object under a
 * symbol it does not export. Null outside jest-circus.
 * @returns {{errors: unknown[]} | null}
 */
function runningTest() {
  const sym = Object.getOwnPropertySymbols(globalThis).find((s) => s.description === 'JEST_STATE_SYMBOL');
  const state = sym && globalThis[sym];
  const test = state && state.currentlyRunningTest;
  return test && Array.isArray(test.errors) ? test : null;
}

/**
 * Adds the platform's requests to the running test's errors when it has
 * failed (jest prints each error of a test under it); a test that has not
 * failed is left alone.
 * @param {import('./index').Platform} platform
 */
async function reportFailure(platform) {
  const test = runningTest();
  if (!test || test.errors.length === 0) return;
  let text;
  try {
    text = await platform.requestsReport();
  } catch (err) {
    text = `(the request journal could not be read: ${err.message})`;
  }
  const err = new Error(text);
  err.name = 'synapsefake requests';
  err.stack = `${err.name}: ${text}`;
  test.errors.push(err);
}

/**
 * The running fake, by process.env.SYNAPSEFAKE_URL; its platforms start
 * as the globalSetup said (SYNAPSEFAKE_PLATFORM_DEFAULTS), by default at
 * DefaultStartTime on a manual clock.
 * @returns {import('./index').Fake}
 */
function useFake() {
  const url = process.env.SYNAPSEFAKE_URL;
  if (!url) {
    throw new Error("synapsefake/jest: SYNAPSEFAKE_URL is not set: add globalSetup: 'synapsefake/jest/setup' and globalTeardown: 'synapsefake/jest/teardown' to jest's config, or set it to a running fake's URL (docs/node.md)");
  }
  if (!connected || connected.url !== url.replace(/\/+$/, '')) {
    let defaults = {};
    try {
      defaults = JSON.parse(process.env.SYNAPSEFAKE_PLATFORM_DEFAULTS || '{}');
    } catch {
      defaults = {};
    }
    connected = connect(url, { start: defaults.start, clock: defaults.clock });
  }
  return connected;
}

/**
 * Registers a beforeEach that makes a fresh platform (createPlatform(options))
 * and an afterEach that reports its requests if the test failed
 * (reportFailure), then deletes it. The object returned stands for the
 * current test's platform (baseUrl, gateway, control, ...).
 * @param {import('./index').PlatformOptions} [options]
 * @param {{beforeEach?: Function, afterEach?: Function}} [hooks] jest's hooks (the globals by default)
 * @returns {import('./index').Platform}
 */
function usePlatform(options, hooks = {}) {
  const before = hooks.beforeEach || globalThis.beforeEach;
  const after = hooks.afterEach || globalThis.afterEach;
  if (typeof before !== 'function' || typeof after !== 'function') {
    throw new Error('synapsefake/jest: usePlatform needs jest\'s beforeEach and afterEach (call it in a test file)');
  }
  // Connects now, while jest collects the file's tests, so that its first
  // test's platform does not open the connection (see connect); a missing
  // fake is reported by the beforeEach.
  try {
    useFake();
  } catch {
    // no SYNAPSEFAKE_URL: the beforeEach says so
  }
  let current = null;
  before(async () => {
    current = await useFake().createPlatform(options);
  });
  after(async () => {
    const p = current;
    current = null;
    if (!p) return;
    await reportFailure(p);
    await p.delete();
  });
  return new Proxy({}, {
    get(_, name) {
      if (!current) throw new Error(`synapsefake/jest: usePlatform's platform.${String(name)} read outside a test: the platform exists from its beforeEach to its afterEach`);
      const v = current[name];
      return typeof v === 'function' ? v.bind(current) : v;
    },
  });
}

module.exports = { globalSetup, globalTeardown, useFake, usePlatform, reportFailure };
