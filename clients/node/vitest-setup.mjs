// synapsefake/vitest/setup: a vitest globalSetup that starts one
// synapsefake binary for the whole run and provides its URL to every test
// file (inject('synapsefake'), which synapsefake/vitest's usePlatform and
// test fixture read). It also sets process.env.SYNAPSEFAKE_URL.
//
//   // vitest.config.js
//   export default { test: { globalSetup: ['synapsefake/vitest/setup'] } };
//
// With options for startFake, a globalSetup file of your own:
//
//   // fake.setup.js
//   import { globalSetup } from 'synapsefake/vitest/setup';
//   export default globalSetup({ start: 'default' });
import { startFake } from './index.mjs';

/** The key under which the fake is provided: inject('synapsefake'). */
export const PROVIDE_KEY = 'synapsefake';

/**
 * A globalSetup function that starts the binary with startFake(options)
 * and resolves to its teardown (stopping it).
 * @param {import('./index').StartOptions} [options]
 * @returns {(project?: {provide?: (key: string, value: unknown) => void}) => Promise<() => Promise<void>>}
 */
export function globalSetup(options = {}) {
  return async function setup(project) {
    const fake = await startFake(options);
    // platformDefaults: the start and clock of the tests' platforms, which
    // synapsefake/vitest's fixtures pass on (DefaultStartTime, manual).
    const info = { url: fake.url, controlUrl: fake.controlUrl, timings: fake.timings, binary: fake.binary, platformDefaults: fake.platformDefaults };
    if (project && typeof project.provide === 'function') project.provide(PROVIDE_KEY, info);
    process.env.SYNAPSEFAKE_URL = fake.url;
    return async () => {
      await fake.stop();
    };
  };
}

let teardownCurrent = null;

/**
 * The default globalSetup: startFake() with its defaults (DefaultStartTime
 * on a manual clock, for the fake and for every test's platform).
 * @param {{provide?: (key: string, value: unknown) => void}} [project]
 */
export async function setup(project) {
  teardownCurrent = await globalSetup()(project);
}

/** Stops the binary setup started. */
export async function teardown() {
  const stop = teardownCurrent;
  teardownCurrent = null;
  if (stop) await stop();
}
