// Types of synapsefake/vitest/setup.
import type { StartOptions } from './index';

type Project = { provide?: (key: string, value: unknown) => void };

export const PROVIDE_KEY: 'synapsefake';
/** A globalSetup that starts the binary with these options; resolves to its teardown. */
export function globalSetup(options?: StartOptions): (project?: Project) => Promise<() => Promise<void>>;
/** The default globalSetup. */
export function setup(project?: Project): Promise<void>;
/** Stops what setup started. */
export function teardown(): Promise<void>;

declare module 'vitest' {
  export interface ProvidedContext {
    synapsefake: { url: string; controlUrl: string; timings: { banner: number; ready: number }; binary: { path: string; source: string }; platformDefaults: { start: string; clock: 'manual' | 'real' } };
  }
}
