// Types of synapsefake/vitest.
import type { TestAPI } from 'vitest';
import type { Fake, Platform, PlatformOptions, PlatformDefaults, BinarySource } from './index';
import './vitest-setup';

/** What the globalSetup provided, or {url} from $SYNAPSEFAKE_URL. */
export function fakeInfo(): { url: string; controlUrl?: string; timings?: { banner: number; ready: number }; binary?: { path: string; source: BinarySource }; platformDefaults?: PlatformDefaults };
/** The running fake, to make platforms on. */
export function useFake(): Fake;
/** Adds the platform's requests to a failed test's errors; nothing for a test that did not fail. */
export function reportFailure(task: { result?: { state?: string; errors?: object[] } } | undefined, platform: Platform): Promise<void>;
/** A fresh platform per test (beforeEach), its requests reported if the test failed, deleted after it (afterEach). */
export function usePlatform(options?: PlatformOptions): Platform;
/** vitest's test with a platform fixture, made with the fixture platformOptions (none by default). */
export const test: TestAPI<{ platform: Platform; platformOptions: PlatformOptions }>;
export const it: TestAPI<{ platform: Platform; platformOptions: PlatformOptions }>;
/** test, its platform made with options, as pytest's @pytest.mark.synapsefake(...) sets a test's. */
export function testWith(options: PlatformOptions): TestAPI<{ platform: Platform; platformOptions: PlatformOptions }>;
