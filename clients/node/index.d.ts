// Types of synapsefake's entry points (index.js, index.mjs).
import { Control, ControlError, ControlOptions } from './control';

export { Control, ControlError } from './control';
export type { ControlOptions, Duration, FakeObject, User, BaseDocument, SubDocument, PermissionChange, DocumentSeed, Node, RecentStatus, Transaction, Webhook, WebhookMatch } from './control';

/** Where the binary came from. */
export type BinarySource = 'option' | 'SYNAPSEFAKE_BIN' | 'package' | 'PATH';

export interface FoundBinary {
  path: string;
  source: BinarySource;
  tried: string[];
}

/**
 * Finds the binary: options.bin, $SYNAPSEFAKE_BIN, the platform package
 * @synapsefake/<os>-<arch>, synapsefake on PATH. None: an Error listing
 * what it tried.
 */
export function findBinary(options?: {
  bin?: string;
  env?: Record<string, string | undefined>;
  platform?: string;
  arch?: string;
  resolve?: (id: string) => string;
}): FoundBinary;

/** '@synapsefake/<os>-<arch>' for process.platform and process.arch (or those given). */
export function platformPackage(platform?: string, arch?: string): string;

/**
 * The instant platforms start at unless told otherwise: Go's
 * DefaultStartTime(), 2026-04-14T14:00:00Z (a Tuesday, 10:00 Eastern), in ms.
 */
export const DEFAULT_START_TIME: number;

/** The start and clock of the platforms a fake makes, unless createPlatform is told others. */
export interface PlatformDefaults {
  /** An RFC 3339 instant or 'default' (DEFAULT_START_TIME, the default). */
  start: string;
  /** 'manual' (the default) or 'real'. */
  clock: 'manual' | 'real';
}

/** Options of connect and of the Fake constructor: the Control's, and the platforms' start and clock. */
export interface ConnectOptions extends ControlOptions {
  /** The platforms' start: RFC 3339, a Date or 'default' (the default). */
  start?: string | Date;
  /** The platforms' clock: 'manual' (the default) or 'real'. */
  clock?: 'manual' | 'real';
}

/** createPlatform's options, all optional. */
export interface PlatformOptions {
  name?: string;
  clientId?: string;
  clientSecret?: string;
  /** An RFC 3339 instant, a Date, or 'default' (the Go tests' start instant); the fake's platformDefaults.start by default. */
  start?: string | Date;
  /** The fake's platformDefaults.clock by default ('manual'). */
  clock?: 'manual' | 'real';
  /** Seed of the platform's id stream. */
  seed?: number;
}

/** One isolated platform of a fake. */
export class Platform {
  /** The API's base URL, http://127.0.0.1:PORT/v3.1. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** 'client_id|client_secret': X-SP-GATEWAY's value. */
  readonly gateway: string;
  readonly name: string;
  /** http://127.0.0.1:PORT/_fake/platforms/{clientId}. */
  readonly controlUrl: string;
  /** The platform's clock when it was made, in ms. */
  readonly createdAt: number;
  /** How long createPlatform took, in ms. */
  readonly createdIn: number;
  /** The control API of this platform only. */
  readonly control: Control;
  /**
   * Its API requests as a failed test's report lists them: the newest 50, each
   * refusal with the fake's reason, and the refusals before those.
   */
  requestsReport(): Promise<string>;
  /** Deletes the platform; deleting one already gone resolves too. */
  delete(): Promise<void>;
}

/** A fake to make platforms on. */
export class Fake {
  constructor(url: string, options?: ConnectOptions);
  /** The API's base URL, http://127.0.0.1:PORT/v3.1. */
  readonly url: string;
  /** The default platform's control API, http://127.0.0.1:PORT/_fake. */
  readonly controlUrl: string;
  /** The default platform's Control. */
  readonly control: Control;
  /** The start and clock createPlatform gives a platform unless its options say otherwise. */
  readonly platformDefaults: PlatformDefaults;
  createPlatform(options?: PlatformOptions): Promise<Platform>;
  /** Stops the binary startFake started; does nothing for a fake connect reached. */
  stop(): Promise<void>;
}

/** A fake startFake started. */
export class StartedFake extends Fake {
  readonly binary: { path: string; source: BinarySource };
  readonly pid: number;
  /** ms from spawn to the banner, and to the first answer. */
  readonly timings: { banner: number; ready: number };
  /** The binary's output so far (the last 64 KiB). */
  readonly log: string;
}

export interface StartOptions {
  /** The binary; otherwise findBinary's search. */
  bin?: string;
  /** The fake's clock and its platforms': 'manual' (the default), frozen until advanced; 'real': runs. */
  clock?: 'manual' | 'real';
  /** The fake's time at start, and its platforms': RFC 3339, a Date, or 'default' (the default: DEFAULT_START_TIME). */
  start?: string | Date;
  clientId?: string;
  clientSecret?: string;
  /** No request log; true by default. */
  quiet?: boolean;
  /** More flags (synapsefake -h lists them). */
  args?: string[];
  env?: Record<string, string | undefined>;
  /** ms to wait for the banner and an answer; 10000 by default. */
  timeout?: number;
}

/** The error startFake rejects with: the binary's log is in the message and in log. */
export interface StartError extends Error {
  log: string;
  binary: { path: string; source: BinarySource };
}

/**
 * Starts the binary on a free loopback port and resolves once it answers.
 * Fails with a StartError holding its log.
 */
export function startFake(options?: StartOptions): Promise<StartedFake>;

/** A fake already running, by its URL (or $SYNAPSEFAKE_URL); spawns nothing. */
export function connect(url?: string, options?: ConnectOptions): Fake;
