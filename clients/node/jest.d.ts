// Types of synapsefake/jest.
import type { Fake, Platform, PlatformOptions, StartOptions } from './index';

/** A jest globalSetup that starts the binary and sets process.env.SYNAPSEFAKE_URL. */
export function globalSetup(options?: StartOptions): () => Promise<void>;
/** Stops what the globalSetup started. */
export function globalTeardown(): Promise<void>;
/** The running fake, by process.env.SYNAPSEFAKE_URL. */
export function useFake(): Fake;
/** Adds the platform's requests to the running test's errors if it failed (jest-circus). */
export function reportFailure(platform: Platform): Promise<void>;
/** A fresh platform per test (beforeEach), its requests reported if the test failed, deleted after it (afterEach). */
export function usePlatform(options?: PlatformOptions, hooks?: { beforeEach?: (fn: () => Promise<void>) => void; afterEach?: (fn: () => Promise<void>) => void }): Platform;
