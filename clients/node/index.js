// synapsefake for Node test suites: starts the standalone fake (the Go
// binary cmd/synapsefake) on a free loopback port, or connects to one
// already running, and makes an isolated platform per test (POST
// /_fake/platforms), each with its own users, clock, webhooks and control
// API. No runtime dependencies: Node 18 or later.
//
//   const { startFake } = require('synapsefake');
//
//   const fake = await startFake();                 // one binary per session
//   const platform = await fake.createPlatform();   // one per test: ~1 ms
//   // platform.baseUrl, platform.gateway ('client_id|client_secret') for X-SP-GATEWAY
//   const user = await platform.control.addUser({ legal_names: ['Ada Lovelace'] });
//   await platform.delete();
//   await fake.stop();
//
// The binary comes from, in order: options.bin, $SYNAPSEFAKE_BIN, the
// platform package @synapsefake/<os>-<arch> (an optional dependency of this
// one), then synapsefake on PATH. docs/node.md says more.
'use strict';

const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Control, ControlError } = require('./control.js');

const BANNER = 'synapsefake serving ';
const LOG_LIMIT = 64 * 1024;

/**
 * The fixed instant every platform starts at unless told otherwise: Go's
 * synapsefake.DefaultStartTime(), Tuesday 14 April 2026, 10:00 Eastern
 * (14:00 UTC), in ms since the epoch. The binary's -start default and a
 * platform's start 'default' are this instant.
 */
const DEFAULT_START_TIME = Date.UTC(2026, 3, 14, 14, 0, 0);

// CLIENT names this package to the binary it starts (SYNAPSEFAKE_CLIENT),
// which then phrases its start-up banner for Node, as Control's
// X-Synapsefake-Client header does for the hints of its answers.
const CLIENT = `node/${require('./package.json').version}`;

/**
 * The name of the platform package that carries the binary for an OS and
 * CPU, as Node names them (process.platform, process.arch).
 * @param {string} [platform]
 * @param {string} [arch]
 * @returns {string} e.g. '@synapsefake/linux-x64'
 */
function platformPackage(platform = process.platform, arch = process.arch) {
  return `@synapsefake/${platform}-${arch}`;
}

// executable tells whether file is a regular file this process may run.
function executable(file, platform) {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return 'not a regular file';
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return null;
  } catch (err) {
    return err.code === 'ENOENT' ? 'no such file' : err.code === 'EACCES' ? 'not executable' : err.message;
  }
}

/**
 * Finds the synapsefake binary: options.bin, then $SYNAPSEFAKE_BIN, then the
 * platform package @synapsefake/<os>-<arch> (its bin/synapsefake, .exe on
 * Windows), then synapsefake on PATH. A bin or SYNAPSEFAKE_BIN that names no
 * executable file is an error, not a reason to look further. None found: an
 * Error whose message lists what was tried and why each failed.
 * @param {{bin?: string, env?: Record<string, string|undefined>, platform?: string, arch?: string, resolve?: (id: string) => string}} [options]
 *   env, platform, arch and resolve stand in for process.env, process.platform,
 *   process.arch and require.resolve (for tests).
 * @returns {{path: string, source: 'option'|'SYNAPSEFAKE_BIN'|'package'|'PATH', tried: string[]}}
 */
function findBinary(options = {}) {
  const env = options.env || process.env;
  const platform = options.platform || process.platform;
  const arch = options.arch || process.arch;
  const resolve = options.resolve || require.resolve;
  const exe = platform === 'win32' ? 'synapsefake.exe' : 'synapsefake';
  const tried = [];
  const fixed = (file, source, label) => {
    const why = executable(file, platform);
    if (why) {
      throw new Error(`synapsefake: ${label} names ${file}, which is ${why === 'no such file' ? 'not there' : why}: ` +
        `point it at the synapsefake binary (go build -o synapsefake ./cmd/synapsefake) or unset it`);
    }
    return { path: path.resolve(file), source, tried: [`${label}=${file}`] };
  };
  if (options.bin) return fixed(options.bin, 'option', 'the bin option');
  if (env.SYNAPSEFAKE_BIN) return fixed(env.SYNAPSEFAKE_BIN, 'SYNAPSEFAKE_BIN', 'SYNAPSEFAKE_BIN');
  tried.push('SYNAPSEFAKE_BIN (not set)');

  const pkg = platformPackage(platform, arch);
  let manifest = null;
  try {
    manifest = resolve(`${pkg}/package.json`);
  } catch {
    tried.push(`the package ${pkg} (not installed)`);
  }
  if (manifest) {
    const file = path.join(path.dirname(manifest), 'bin', exe);
    const why = executable(file, platform);
    if (!why) return { path: file, source: 'package', tried: [...tried, `the package ${pkg}`] };
    tried.push(`the package ${pkg} (${file}: ${why})`);
  }

  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const names = platform === 'win32' ? [exe, 'synapsefake'] : [exe];
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (!executable(file, platform)) return { path: file, source: 'PATH', tried: [...tried, `PATH: ${file}`] };
    }
  }
  tried.push(`${exe} on PATH (${dirs.length ? `not in ${dirs.join(path.delimiter)}` : 'PATH is empty'})`);
  throw new Error(`synapsefake: no synapsefake binary found; tried ${tried.join(', ')}. ` +
    `Install ${pkg} (npm installs it with synapsefake unless optional dependencies are omitted), ` +
    `set SYNAPSEFAKE_BIN to a binary (go build -o synapsefake ./cmd/synapsefake), or put one on PATH`);
}

/**
 * A platform of a running fake: its own users, nodes, ids, clock,
 * subscriptions, webhook capture, journal and faults.
 */
class Platform {
  /**
   * @param {object} answer the "platform" of POST /_fake/platforms
   * @param {Control} root the server's default control API
   * @param {{token?: string, timeout?: number}} [controlOptions]
   */
  constructor(answer, root, controlOptions = {}) {
    /** The API's base URL (.../v3.1), the same for every platform. */
    this.baseUrl = answer.base_url;
    /** The platform's client id: the X-SP-GATEWAY's first half. */
    this.clientId = answer.client_id;
    /** The platform's client secret. */
    this.clientSecret = answer.client_secret;
    /** 'client_id|client_secret', the X-SP-GATEWAY header's value. */
    this.gateway = answer.gateway;
    /** The platform's name (client.name in its answers). */
    this.name = answer.name;
    /** The platform's control API: .../_fake/platforms/{client_id}. */
    this.controlUrl = answer.control_url;
    /** The platform's clock when it was made, in ms since the epoch. */
    this.createdAt = answer.now;
    /** How long createPlatform took, in ms. */
    this.createdIn = 0;
    /** A Control for this platform only. */
    this.control = new Control(answer.control_url, controlOptions);
    this._root = root;
  }

  /**
   * The platform's API requests as lines for a failed test's report, as
   * the pytest plugin's "synapsefake requests": the newest 50, each
   * refusal with the fake's reason (its hints in Node's calls), and before
   * them the refusals older than those.
   * @returns {Promise<string>}
   */
  async requestsReport() {
    return formatRequests(await this.control.requests());
  }

  /**
   * Deletes the platform and everything in it; its gateway is refused (401)
   * from then on. Deleting one already gone resolves as well.
   * @returns {Promise<void>}
   */
  async delete() {
    try {
      await this._root.call('DELETE', `platforms/${encodeURIComponent(this.clientId)}`);
    } catch (err) {
      if (!(err instanceof ControlError && err.code === 'unable_to_locate_platform')) throw err;
    }
  }
}

// REPORT_NEWEST is how many of the newest requests a failure report lists.
const REPORT_NEWEST = 50;

// formatRequests is requestsReport's text of a journal (GET
// /_fake/requests' requests, oldest first).
function formatRequests(requests) {
  if (!requests.length) return "(no API request reached this test's platform)";
  const line = (r) => `${r.method} ${r.path} -> ${r.status}${r.error_code ? ` error_code ${r.error_code}` : ''}${r.reason ? `: ${r.reason}` : ''}`;
  const newest = requests.slice(-REPORT_NEWEST);
  const earlier = requests.slice(0, -REPORT_NEWEST).filter((r) => r.reason).slice(-REPORT_NEWEST);
  const lines = [];
  if (earlier.length) lines.push(`refused before the newest ${REPORT_NEWEST}:`, ...earlier.map(line), `the newest ${REPORT_NEWEST} of ${requests.length}:`);
  lines.push(...newest.map(line));
  return lines.join('\n');
}

// platformBody is POST /_fake/platforms' body from createPlatform's
// options, over the fake's defaults for start and clock.
function platformBody(options = {}, defaults = {}) {
  const known = { name: 'name', clientId: 'client_id', clientSecret: 'client_secret', start: 'start', clock: 'clock', seed: 'seed' };
  const body = {};
  for (const [k, v] of Object.entries({ ...defaults, ...options })) {
    if (!(k in known)) throw new TypeError(`createPlatform: unknown option ${k}; the options are ${Object.keys(known).join(', ')}`);
    if (v === undefined || v === null) continue;
    body[known[k]] = v instanceof Date ? v.toISOString() : v;
  }
  return body;
}

// platformDefaults are the start and clock a fake's platforms get unless
// createPlatform's options say otherwise: those given (startFake's, or
// connect's), else DefaultStartTime on a manual clock.
function platformDefaults(options = {}) {
  const start = options.start instanceof Date ? options.start.toISOString() : options.start;
  return { start: start || 'default', clock: options.clock || 'manual' };
}

/**
 * A fake to make platforms on: one startFake started, or one connect
 * reached.
 */
class Fake {
  /**
   * @param {string} url the API's base URL, http://127.0.0.1:PORT/v3.1
   * @param {{token?: string, timeout?: number, start?: string|Date, clock?: 'manual'|'real'}} [controlOptions]
   *   token and timeout are the Control's; start and clock those of the
   *   platforms createPlatform makes (DefaultStartTime and 'manual' unless given)
   */
  constructor(url, controlOptions = {}) {
    /** The API's base URL: http://127.0.0.1:PORT/v3.1. */
    this.url = String(url).replace(/\/+$/, '');
    /** The default platform's control API: http://127.0.0.1:PORT/_fake. */
    this.controlUrl = this.url.replace(/\/v3\.1$/, '') + '/_fake';
    /** A Control for the default platform (and the platforms routes). */
    const { start, clock, ...ctl } = controlOptions;
    this.control = new Control(this.controlUrl, ctl);
    /** The start and clock of the platforms createPlatform makes, unless its options say otherwise. */
    this.platformDefaults = platformDefaults({ start, clock });
    this._controlOptions = ctl;
  }

  /**
   * Makes a new platform (POST /_fake/platforms). Every option is optional:
   * name, clientId, clientSecret, start (RFC 3339, a Date or 'default'),
   * clock ('manual' or 'real'), seed (of its id stream). start and clock
   * default to the fake's platformDefaults: DefaultStartTime on a manual
   * clock, unless startFake or connect was given others.
   * @param {{name?: string, clientId?: string, clientSecret?: string, start?: string|Date, clock?: 'manual'|'real', seed?: number}} [options]
   * @returns {Promise<Platform>}
   */
  async createPlatform(options) {
    const t0 = performance.now();
    const answer = await this.control.call('POST', 'platforms', platformBody(options, this.platformDefaults));
    const platform = new Platform(answer.platform, this.control, this._controlOptions);
    platform.createdIn = performance.now() - t0;
    return platform;
  }

  /** Nothing to stop for a fake connect reached; startFake's stops the binary. */
  async stop() {}
}

/**
 * A fake this process started: the binary's process, its log and how long
 * it took to start.
 */
class StartedFake extends Fake {
  constructor(url, child, state, binary, timings, defaults) {
    super(url, defaults);
    /** The binary that runs: {path, source}. */
    this.binary = binary;
    /** The child process's id. */
    this.pid = child.pid;
    /** ms from spawn to the banner, and from spawn to the first answer. */
    this.timings = timings;
    this._child = child;
    this._state = state;
  }

  /** The binary's output so far (stdout and stderr, the last 64 KiB). */
  get log() {
    return this._state.log;
  }

  /**
   * Stops the binary (SIGTERM, SIGKILL after 5 s) and resolves once it has
   * exited. Calling it again resolves at once.
   * @returns {Promise<void>}
   */
  async stop() {
    const child = this._child;
    if (this._state.exited) return;
    const gone = new Promise((res) => child.once('exit', () => res()));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(kill);
    process.removeListener('exit', this._state.onExit);
  }
}

// START_OPTIONS are startFake's options.
const START_OPTIONS = ['bin', 'clock', 'start', 'clientId', 'clientSecret', 'quiet', 'args', 'env', 'timeout'];

/**
 * Starts the synapsefake binary on a free loopback port (-addr
 * 127.0.0.1:0) and resolves once it has printed its banner and answered a
 * control call. It fails (rejects with an Error whose message holds the
 * binary's log and whose log property is that log) when the binary exits
 * first or does not answer within options.timeout. The process is killed
 * when this one exits, if stop() was not called.
 * @param {object} [options]
 * @param {string} [options.bin] the binary (else findBinary's search)
 * @param {'manual'|'real'} [options.clock] 'manual' by default: frozen until advanced
 * @param {string|Date} [options.start] the fake's time at start: RFC 3339, a Date or 'default'
 *   (DEFAULT_START_TIME, the Go tests' instant), which it is by default; the binary run by
 *   hand starts at the wall-clock time instead
 * @param {string} [options.clientId] the default platform's client id
 * @param {string} [options.clientSecret] the default platform's client secret
 * @param {boolean} [options.quiet] no request log (true by default)
 * @param {string[]} [options.args] more flags for the binary (synapsefake -h lists them)
 * @param {Record<string, string>} [options.env] the binary's environment (process.env by default)
 * @param {number} [options.timeout] ms to wait for the banner and the answer, 10000 by default
 * @returns {Promise<StartedFake>}
 */
async function startFake(options = {}) {
  for (const k of Object.keys(options)) {
    if (!START_OPTIONS.includes(k)) throw new TypeError(`startFake: unknown option ${k}; the options are ${START_OPTIONS.join(', ')}`);
  }
  const binary = findBinary({ bin: options.bin });
  const defaults = platformDefaults(options);
  const args = ['-addr', '127.0.0.1:0', '-clock', defaults.clock, '-start', defaults.start];
  if (options.clientId) args.push('-client-id', options.clientId);
  if (options.clientSecret) args.push('-client-secret', options.clientSecret);
  if (options.quiet !== false) args.push('-quiet');
  args.push(...(options.args || []));
  const timeout = options.timeout || 10_000;

  const t0 = performance.now();
  const env = { ...(options.env || process.env), SYNAPSEFAKE_CLIENT: CLIENT };
  const child = childProcess.spawn(binary.path, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const state = { log: '', exited: false, exit: null, onExit: null };
  const append = (chunk) => {
    state.log += chunk;
    if (state.log.length > LOG_LIMIT) state.log = state.log.slice(-LOG_LIMIT);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', append);
  state.onExit = () => child.kill('SIGKILL');
  process.on('exit', state.onExit);

  const fail = (why) => {
    if (!state.exited) child.kill('SIGKILL');
    process.removeListener('exit', state.onExit);
    const err = new Error(`synapsefake: ${binary.path} ${args.join(' ')}: ${why}; its output:\n${state.log || '(none)'}`);
    err.log = state.log;
    err.binary = binary;
    return err;
  };

  let bannerAt = 0;
  const url = await new Promise((resolve, reject) => {
    let first = '';
    const timer = setTimeout(() => reject(fail(`no banner within ${timeout} ms`)), timeout);
    child.stdout.on('data', (chunk) => {
      append(chunk);
      if (bannerAt) return;
      first += chunk;
      const nl = first.indexOf('\n');
      if (nl < 0) return;
      const line = first.slice(0, nl).trim();
      clearTimeout(timer);
      if (!line.startsWith(BANNER)) return reject(fail(`its first line is not "${BANNER}URL"`));
      bannerAt = performance.now();
      resolve(line.slice(BANNER.length));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(fail(`it did not start (${err.message})`));
    });
    child.once('exit', (code, signal) => {
      state.exited = true;
      state.exit = { code, signal };
    });
    // 'close', not 'exit': by then its output has been read to the end, so
    // the error holds what it said before it exited.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (!bannerAt) reject(fail(`it exited (${signal ? `signal ${signal}` : `status ${code}`}) before its banner`));
    });
  });

  // An answer: the clock of the default platform, asked on the kept-alive
  // connection every Control of this process shares, which the first
  // createPlatform then reuses rather than opening its own.
  const controlUrl = `${url.replace(/\/v3\.1$/, '')}/_fake`;
  try {
    await new Control(controlUrl, { timeout }).call('GET', 'clock');
  } catch (err) {
    throw fail(`it printed its banner but ${controlUrl}/clock did not answer (${err.message})`);
  }
  const readyAt = performance.now();
  // The fake no longer keeps this process alive; stop() or this process's
  // exit ends it.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  return new StartedFake(url, child, state, { path: binary.path, source: binary.source },
    { banner: bannerAt - t0, ready: readyAt - t0 }, defaults);
}

/**
 * Connects to a fake already running (one a globalSetup started, or the
 * binary you run yourself), by its API base URL (http://127.0.0.1:PORT/v3.1)
 * or origin; without url, by $SYNAPSEFAKE_URL. Nothing is spawned; stop()
 * does nothing. It asks the fake's clock at once, without waiting for the
 * answer, to open the connection its calls reuse. Its platforms start at DefaultStartTime on a manual clock,
 * whatever the fake's own clock, unless options.start and options.clock
 * (or createPlatform's) say otherwise.
 * @param {string} [url]
 * @param {{token?: string, timeout?: number, start?: string|Date, clock?: 'manual'|'real'}} [options]
 *   the server's -control-token, a timeout per call in ms, the platforms' start and clock
 * @returns {Fake}
 */
function connect(url = process.env.SYNAPSEFAKE_URL, options = {}) {
  if (!url) throw new Error('synapsefake: connect needs the fake\'s URL (http://127.0.0.1:PORT/v3.1), or SYNAPSEFAKE_URL set; start one with startFake or a globalSetup (docs/node.md)');
  let base = String(url).replace(/\/+$/, '').replace(/\/_fake$/, '');
  if (!/\/v3\.1$/.test(base)) base += '/v3.1';
  const fake = new Fake(base, options);
  // Opens the kept-alive connection now, while the caller goes on (a test
  // file being collected), so that the first createPlatform finds it open
  // and its code warm: a process's first request costs about 10 ms more
  // than the next. A fake not reachable yet is createPlatform's to report.
  fake.control.call('GET', 'clock').catch(() => {});
  return fake;
}

module.exports = { startFake, connect, findBinary, platformPackage, Fake, StartedFake, Platform, Control, ControlError, DEFAULT_START_TIME };
