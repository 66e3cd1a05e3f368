// A client for synapsefake's control API (/_fake/), the Go test helpers over
// HTTP. No dependencies: Node 18 or later (node:net). Part of the
// synapsefake package (clients/node, docs/node.md); this file also works on
// its own, copied beside your tests.
//
//   const { Control, ControlError } = require('synapsefake'); // or require('./control.js')
//
//   const ctl = new Control('http://127.0.0.1:8080'); // the API's base URL (.../v3.1) works too
//   // a platform's control URL (http://127.0.0.1:8080/_fake/platforms/ID) reaches that platform
//   const user = await ctl.addUser({ legal_names: ['Ada Lovelace'] });
//   const node = await ctl.addNode(user._id, { nickname: 'Checking', balance_cents: 10000 });
//   await ctl.fund(node._id, 2500);                   // the node after: balance_cents 12500
//   await ctl.advance('24h');                         // the fake's clock, and every transfer with it
//   const hook = await ctl.waitWebhook({ object_id: node._id, function: 'NODES|POST' });
//
// Each method is one endpoint of docs/control-api.md and resolves to the
// field its answer names: a user, a node, a transaction, a list, the clock's
// time in milliseconds. A refusal rejects with a ControlError, which carries
// the API's error envelope (errorCode, httpCode, code, en) and the HTTP
// status. Ids are the strings the fake gave; amounts are integer cents;
// durations are Go durations ('90m', '24h') or numbers of milliseconds;
// times are milliseconds since the epoch.
'use strict';

const TOKEN_HEADER = 'X-Fake-Control-Token';

// CLIENT_HEADER tells the fake who calls: it phrases its hints (in failed
// waits, in the journal's reasons) for this client, as platform.control
// calls rather than Go's (docs/control-api.md, "Hints in your language").
const CLIENT_HEADER = 'X-Synapsefake-Client';
const CLIENT = `node/${(() => {
  try {
    return require('./package.json').version;
  } catch {
    return 'unknown'; // this file copied on its own
  }
})()}`;

// ControlError is a refusal of the control API. status is the HTTP status;
// errorCode and httpCode are the envelope's strings ('404', '404'); code is
// error.code (e.g. 'unable_to_locate_node') and en (also reason) error.en; envelope
// is the whole decoded body (null when it was not JSON); method and path
// name the call. The message holds the reason once: en, reason and
// envelope are not enumerable, so that printing the error (console.log,
// a test runner's report) does not repeat it.
class ControlError extends Error {
  constructor(method, path, status, envelope, text) {
    const env = envelope !== null && typeof envelope === 'object' && !Array.isArray(envelope) ? envelope : null;
    const err = env && env.error && typeof env.error === 'object' ? env.error : {};
    const message = err.en || text || '';
    super(`${method} ${path}: HTTP ${status}, error_code ${env ? env.error_code : undefined}, ${err.code}: ${message}`);
    this.name = 'ControlError';
    this.method = method;
    this.path = path;
    this.status = status;
    this.errorCode = env ? env.error_code : undefined;
    this.httpCode = env ? env.http_code : undefined;
    this.code = err.code;
    Object.defineProperties(this, {
      envelope: { value: env, writable: true, configurable: true, enumerable: false },
      en: { value: message, writable: true, configurable: true, enumerable: false },
      reason: { value: message, writable: true, configurable: true, enumerable: false },
    });
  }
}

// duration is a Go duration string from a string or a number of ms.
function duration(d) {
  if (typeof d === 'string') return d;
  if (typeof d === 'number' && Number.isFinite(d)) return `${Math.round(d)}ms`;
  throw new TypeError(`a duration is a Go duration string ('24h') or a number of milliseconds, not ${d}`);
}

// fields is the given (not undefined or null) properties of o, as a body.
function fields(o) {
  const out = {};
  for (const [k, v] of Object.entries(o || {})) {
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

const seg = (s) => encodeURIComponent(String(s));

// The transport. A control call over node:http took about 0.5 ms round
// trip once warm, 0.8 to 1.6 ms over a process's first ten calls (its code
// still interpreted, all a ten-test suite makes) and 10 ms more for the
// very first: most of what a fresh platform cost, where Python's urllib
// takes 0.5 ms. So http: URLs take a small HTTP/1.1 client over node:net
// instead, 0.15 to 0.2 ms warm or cold: one write per request, an answer
// parsed from the bytes read. It keeps each connection open for the next
// call (idle ones do not keep the process alive) and opens one more for
// each call in flight at once. https: URLs (a fake behind a proxy) go
// through node:https.

const MAX_HEAD = 64 * 1024; // bytes of a response's status line and headers
const MAX_IDLE = 16; // idle connections kept per origin

// idle holds the open connections no call uses, by origin.
const idle = new Map();

// send makes one request and resolves to {status, text}; it rejects after
// timeout ms without a whole answer, and with the request named when the
// connection fails. A connection kept from an earlier call that the server
// has closed meanwhile is retried once on a new one.
async function send(url, method, headers, data, timeout) {
  const u = new URL(url);
  const once = u.protocol === 'https:' ? sendHTTPS : sendRaw;
  try {
    return await once(u, method, headers, data, timeout);
  } catch (err) {
    if (!(err.reused && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))) throw err;
    // The fake closed its end of the connections kept (restarted, or a
    // proxy between timed them out): none is worth trying.
    for (const conn of idle.get(u.origin) || []) conn.socket.destroy();
    idle.delete(u.origin);
    return once(u, method, headers, data, timeout);
  }
}

// callError is the error of a call whose connection failed: the request
// named, the fake asked about; code and reused as the cause's.
function callError(method, u, err, reused) {
  const e = new Error(`${method} ${u.pathname}${u.search}: ${err.message} (is the fake at ${u.origin} running?)`, { cause: err });
  e.code = err.code;
  e.reused = reused;
  return e;
}

// sendRaw is one request over a kept connection (see the transport).
function sendRaw(u, method, headers, data, timeout) {
  const body = data === undefined ? null : Buffer.from(data, 'utf8');
  let head = `${method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n`;
  for (const [k, v] of Object.entries(headers)) {
    if (/[\r\n\0]/.test(String(v))) throw new TypeError(`the header ${k} holds a line break or a NUL`);
    head += `${k}: ${v}\r\n`;
  }
  if (body) head += `Content-Length: ${body.length}\r\n`;
  const bytes = Buffer.from(head + '\r\n', 'latin1');
  const conn = takeConnection(u);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      conn.fail(Object.assign(new Error(`no answer within ${timeout} ms`), { code: 'ETIMEDOUT' }));
    }, timeout);
    conn.call = {
      done(res) {
        clearTimeout(timer);
        resolve(res);
      },
      failed(err) {
        clearTimeout(timer);
        reject(callError(method, u, err, conn.reused && !conn.answered));
      },
    };
    conn.socket.write(body ? Buffer.concat([bytes, body]) : bytes);
  });
}

// takeConnection is an idle connection to u's origin, or a new one.
function takeConnection(u) {
  const list = idle.get(u.origin);
  while (list && list.length) {
    const conn = list.pop();
    if (!conn.socket.destroyed) {
      conn.socket.ref();
      conn.reused = true;
      conn.answered = false;
      return conn;
    }
  }
  return openConnection(u);
}

// openConnection connects to u's origin; the connection reads one answer
// at a time for its call (conn.call) and goes back to idle after each.
function openConnection(u) {
  const socket = require('node:net').connect({ host: u.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(u.port) || 80 });
  socket.setNoDelay(true);
  const conn = { origin: u.origin, socket, call: null, reused: false, answered: false, parser: null };
  conn.fail = (err) => {
    const call = conn.call;
    conn.call = null;
    socket.destroy();
    if (call) call.failed(err);
  };
  socket.on('data', (chunk) => {
    if (!conn.call) return conn.fail(new Error('the fake sent bytes no call asked for'));
    conn.answered = true;
    conn.parser ||= newParser();
    let res;
    try {
      res = conn.parser.push(chunk);
    } catch (err) {
      return conn.fail(err);
    }
    if (res) finish(conn, res);
  });
  socket.on('error', (err) => conn.fail(err));
  socket.on('close', () => {
    dropIdle(conn);
    if (!conn.call) return;
    // An answer that ends with the connection (no length given) is whole now.
    const res = conn.parser && conn.parser.end();
    if (res) return finish(conn, res);
    conn.fail(Object.assign(new Error('the connection closed before the answer'), { code: 'ECONNRESET' }));
  });
  return conn;
}

// finish hands a whole answer to its call and keeps the connection for the
// next, unless the answer closes it.
function finish(conn, res) {
  const call = conn.call;
  conn.call = null;
  conn.parser = null;
  if (res.close || res.extra) {
    conn.socket.destroy();
  } else {
    conn.socket.unref();
    const list = idle.get(conn.origin) || [];
    idle.set(conn.origin, list);
    if (list.length < MAX_IDLE) list.push(conn);
    else conn.socket.destroy();
  }
  call.done({ status: res.status, text: res.text });
}

function dropIdle(conn) {
  const list = idle.get(conn.origin);
  const i = list ? list.indexOf(conn) : -1;
  if (i >= 0) list.splice(i, 1);
}

// newParser reads one HTTP/1.1 answer from the bytes pushed: push(chunk)
// returns {status, text, close, extra} once the answer is whole, else
// null; end() is the answer when the connection closes (one that had no
// length runs until then), else null. Bodies come with a Content-Length,
// chunked, or until the connection closes; 1xx answers are skipped.
function newParser() {
  let buf = Buffer.alloc(0);
  let res = null; // {status, close, length, chunked}
  const parts = [];
  const whole = (extra) => ({ status: res.status, text: Buffer.concat(parts).toString('utf8'), close: res.close, extra });
  const readHead = () => {
    for (;;) {
      const at = buf.indexOf('\r\n\r\n');
      if (at < 0) {
        if (buf.length > MAX_HEAD) throw new Error(`an answer whose headers pass ${MAX_HEAD} bytes`);
        return false;
      }
      const lines = buf.toString('latin1', 0, at).split('\r\n');
      buf = buf.subarray(at + 4);
      const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]);
      if (!m) throw new Error(`not an HTTP/1.1 answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
      const status = Number(m[2]);
      if (status >= 100 && status < 200) continue;
      const h = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) h[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const conn = (h.connection || '').toLowerCase();
      res = { status, close: conn === 'close' || (m[1] === '0' && conn !== 'keep-alive'), length: -1, chunked: false };
      if (/chunked/i.test(h['transfer-encoding'] || '')) res.chunked = true;
      else if (status === 204 || status === 304) res.length = 0;
      else if (h['content-length'] !== undefined) res.length = Number(h['content-length']);
      else res.close = true; // the body runs until the connection closes
      if (!Number.isSafeInteger(res.length) || res.length < -1) throw new Error(`a bad Content-Length: ${h['content-length']}`);
      return true;
    }
  };
  // readChunks takes the chunks buffered; true once the last has come.
  const readChunks = () => {
    for (;;) {
      const eol = buf.indexOf('\r\n');
      if (eol < 0) return false;
      const size = parseInt(buf.toString('latin1', 0, eol).split(';')[0], 16);
      if (!Number.isSafeInteger(size) || size < 0) throw new Error('a bad chunk size in a chunked answer');
      if (size === 0) {
        // Trailers (none from the fake) end with an empty line.
        const end = buf.indexOf('\r\n\r\n', eol);
        if (end < 0) return false;
        buf = buf.subarray(end + 4);
        return true;
      }
      if (buf.length < eol + 2 + size + 2) return false;
      parts.push(buf.subarray(eol + 2, eol + 2 + size));
      buf = buf.subarray(eol + 2 + size + 2);
    }
  };
  return {
    push(chunk) {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (!res && !readHead()) return null;
      if (res.chunked) return readChunks() ? whole(buf.length > 0) : null;
      if (res.length < 0) {
        parts.push(buf);
        buf = Buffer.alloc(0);
        return null;
      }
      if (buf.length < res.length) return null;
      parts.push(buf.subarray(0, res.length));
      return whole(buf.length > res.length);
    },
    end() {
      return res && res.length < 0 && !res.chunked ? whole(false) : null;
    },
  };
}

// https (a fake behind a TLS proxy) goes through node:https, one agent
// keeping its connections.
let httpsAgent = null;

function sendHTTPS(u, method, headers, data, timeout) {
  const https = require('node:https');
  httpsAgent ||= new https.Agent({ keepAlive: true });
  if (data !== undefined) headers = { ...headers, 'Content-Length': Buffer.byteLength(data) };
  return new Promise((resolve, reject) => {
    const req = https.request(u, { method, headers, agent: httpsAgent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${timeout} ms`), { code: 'ETIMEDOUT' })), timeout);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(callError(method, u, err, req.reusedSocket));
    });
    req.end(data);
  });
}

// Control is the control API of one synapsefake server. baseURL is the
// server's origin (http://127.0.0.1:8080) or the API's base URL the banner
// prints (http://127.0.0.1:8080/v3.1), or a control URL: the default
// platform's (http://127.0.0.1:8080/_fake) or another platform's
// (http://127.0.0.1:8080/_fake/platforms/ID, what POST /_fake/platforms
// answers as control_url), whose routes it then calls. options.token is the server's
// -control-token, when it was started with one; options.timeout bounds each
// call in ms (a webhook wait adds its own 30 s at most).
class Control {
  constructor(baseURL, options = {}) {
    const url = String(baseURL).replace(/\/+$/, '').replace(/\/v3\.1$/, '');
    const at = url.search(/\/_fake(\/|$)/);
    this.origin = at < 0 ? url : url.slice(0, at);
    // prefix is the path of the control API's root: /_fake, or
    // /_fake/platforms/ID for another platform.
    this.prefix = at < 0 ? '/_fake' : url.slice(at);
    this.token = options.token;
    this.timeout = options.timeout || 10_000;
  }

  // call calls one control endpoint (path under /_fake/, e.g. 'users') and
  // resolves to the decoded answer. body is an object (sent as JSON) or a
  // string (sent as it is). A refusal rejects with a ControlError.
  async call(method, path, body, query, timeout) {
    let full = this.prefix + '/' + String(path).replace(/^\/+/, '');
    const q = new URLSearchParams(Object.entries(fields(query)).map(([k, v]) => [k, String(v)]));
    if ([...q].length) full += '?' + q;
    const headers = { Accept: 'application/json', [CLIENT_HEADER]: CLIENT };
    let data;
    if (body !== undefined && body !== null) {
      data = typeof body === 'string' ? body : JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    if (this.token) headers[TOKEN_HEADER] = this.token;
    const resp = await send(this.origin + full, method, headers, data, timeout || this.timeout);
    const text = resp.text;
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (resp.status !== 200) throw new ControlError(method, full, resp.status, answer, text);
    if (answer === null) throw new ControlError(method, full, resp.status, null, `the answer is not JSON: ${text.slice(0, 200)}`);
    return answer;
  }

  async #get(path, query) {
    return this.call('GET', path, undefined, query);
  }

  async #post(path, body) {
    return this.call('POST', path, body && Object.keys(body).length ? body : undefined);
  }

  // --- users, nodes, subnets, keys ---

  // addUser is AddUser: {email, phone_numbers, legal_names, fingerprint,
  // supp_id, is_business, permission, documents}, all optional. documents
  // are sub-documents filed under one base document, each {kind: 'physical'
  // | 'social' | 'virtual', type: 'SSN', value: '2222', status: 'VALID'}:
  // without a status one goes under review as an API upload does (the
  // sandbox's test values decide it).
  async addUser(seed = {}) {
    return (await this.#post('users', fields(seed))).user;
  }

  // users are the newest users, newest first (at most limit, 100 by default).
  async users({ limit } = {}) {
    return (await this.#get('users', { limit })).users;
  }

  // user is User: one user.
  async user(userID) {
    return (await this.#get(`users/${seg(userID)}`)).user;
  }

  // userNodes are the user's active nodes, oldest first, with balance_cents
  // and available_cents.
  async userNodes(userID) {
    return (await this.#get(`users/${seg(userID)}/nodes`)).nodes;
  }

  // addNode is AddNode: {type, nickname, balance_cents, account_num,
  // routing_num, supp_id}, all optional (DEPOSIT-US by default).
  async addNode(userID, seed = {}) {
    return (await this.#post(`users/${seg(userID)}/nodes`, fields(seed))).node;
  }

  // node is Node: one node with its current (balance_cents) and available
  // (available_cents) balance.
  async node(nodeID) {
    return (await this.#get(`nodes/${seg(nodeID)}`)).node;
  }

  // fund is Fund: money for a node at once (no transaction, no webhook);
  // resolves to the node after.
  async fund(nodeID, amountCents) {
    return (await this.#post(`nodes/${seg(nodeID)}/fund`, { amount_cents: amountCents })).node;
  }

  // transactions are the newest transactions of a user (sent or received)
  // or of a node, newest first: {userId} or {nodeId} (userID and nodeID,
  // their first spelling, still do), and limit.
  async transactions({ userId, nodeId, userID = userId, nodeID = nodeId, limit } = {}) {
    if ((userID === undefined) === (nodeID === undefined)) throw new TypeError('give exactly one of userId and nodeId');
    const owner = userID !== undefined ? `users/${seg(userID)}` : `nodes/${seg(nodeID)}`;
    return (await this.#get(`${owner}/transactions`, { limit })).transactions;
  }

  // addSubnet is AddSubnet: {nickname, account_class, status}; an account
  // number (CHECKING, SAVINGS) or a card (CARD), numbers in full.
  async addSubnet(userID, nodeID, seed = {}) {
    return (await this.#post(`users/${seg(userID)}/nodes/${seg(nodeID)}/subnets`, fields(seed))).subnet;
  }

  // oauthKey is OAuthKey: a key for the user on the fingerprint (every
  // user-level scope when scopes is not given).
  async oauthKey(userID, fingerprint, scopes) {
    return (await this.#post(`users/${seg(userID)}/oauth`, fields({ fingerprint, scopes }))).oauth_key;
  }

  // forceMFA is ForceMFA: the user's next sign-in asks for a PIN.
  async forceMFA(userID) {
    await this.#post(`users/${seg(userID)}/force-mfa`);
  }

  // mfaPin is MFAPin: the PIN the fake sent the user.
  async mfaPin(userID) {
    return (await this.#get(`users/${seg(userID)}/mfa-pin`)).pin;
  }

  // setPermission is SetPermission: the platform's change of a user's
  // permission; resolves to the user.
  async setPermission(userID, permission) {
    return (await this.#post(`users/${seg(userID)}/permission`, { permission })).user;
  }

  // reviewDocument is ReviewDocument: one sub-document of the user
  // (documentID is the sub-document's id) takes status ('VALID', 'INVALID',
  // 'BLACKLIST', 'REVIEWING', 'MFA_PENDING', 'SUBMITTED' or the wire's
  // 'SUBMITTED|VALID'...); resolves to the user, its documents and
  // permission after.
  async reviewDocument(userID, documentID, status) {
    return (await this.#post(`users/${seg(userID)}/documents/${seg(documentID)}/review`, { status })).user;
  }

  // reviewDocuments is ReviewDocuments: every sub-document of the user still
  // under review (SUBMITTED|REVIEWING or SUBMITTED|MFA_PENDING) takes
  // status; resolves to the user after.
  async reviewDocuments(userID, status) {
    return (await this.#post(`users/${seg(userID)}/documents/review`, { status })).user;
  }

  // addSubscription is AddSubscription: webhooks for url (all eight scopes
  // when scopes is not given).
  async addSubscription(url, scopes) {
    return (await this.#post('subscriptions', fields({ url, scopes }))).subscription;
  }

  // loadWorld is LoadWorld: a world file (an object, or its JSON); resolves
  // to names to ids.
  async loadWorld(world) {
    return (await this.call('POST', 'world', world)).world;
  }

  // --- the clock ---

  // now is the fake's time, a Date (Go's Now()).
  async now() {
    return new Date(await this.nowMs());
  }

  // nowMs is the fake's time in ms since the epoch, as GET /_fake/clock
  // answers it.
  async nowMs() {
    return (await this.#get('clock')).now;
  }

  // advance is Advance: moves the clock (and everything due) by a Go
  // duration ('24h') or a number of ms; resolves to the time after, a Date.
  async advance(d) {
    return new Date((await this.#post('clock/advance', { duration: duration(d) })).now);
  }

  // advanceToNextBusinessDay is AdvanceToNextBusinessDay; the time after, a Date.
  async advanceToNextBusinessDay() {
    return new Date((await this.#post('clock/next-business-day')).now);
  }

  // advanceToCutoff is AdvanceToCutoff: 'ach', 'same-day' or 'wire'; the
  // time after, a Date.
  async advanceToCutoff(cutoff) {
    return new Date((await this.#post('clock/cutoff', { cutoff })).now);
  }

  // --- transactions ---

  // transaction is Transaction: its status, code, amount_cents, nodes and
  // timeline.
  async transaction(txID) {
    return (await this.#get(`transactions/${seg(txID)}`)).transaction;
  }

  async #move(txID, move, body) {
    return (await this.#post(`transactions/${seg(txID)}/${move}`, body)).transaction;
  }

  // settle is Settle: every remaining step to SETTLED.
  async settle(txID) {
    return this.#move(txID, 'settle');
  }

  // return is Return with an ACH R.., card IR.. or wire WR.. code; late
  // returns past the code's window.
  async return(txID, code, { late } = {}) {
    return this.#move(txID, 'return', fields({ code, late: late || undefined }));
  }

  // returnTransaction is return under a name that is not a keyword.
  async returnTransaction(txID, code, options) {
    return this.return(txID, code, options);
  }

  // scheduleReturn is Go's Return with AfterSettlement: returned with code, after (a
  // duration) once it settles.
  async scheduleReturn(txID, code, { after, late } = {}) {
    return this.#move(txID, 'schedule-return', fields({ code, after: after === undefined ? undefined : duration(after), late: late || undefined }));
  }

  // queue is Queue: CREATED to QUEUED-BY-SYNAPSE (or -BY-RECEIVER, by code).
  async queue(txID, code) {
    return this.#move(txID, 'queue', fields({ code }));
  }

  // release is Release: a queued transaction back to CREATED.
  async release(txID) {
    return this.#move(txID, 'release');
  }

  // cancel is Cancel of a CREATED or queued transaction.
  async cancel(txID, code) {
    return this.#move(txID, 'cancel', fields({ code }));
  }

  // advanceTransaction is AdvanceTransaction: one step, to status.
  async advanceTransaction(txID, status) {
    return this.#move(txID, 'advance', { status });
  }

  // dishonorReturn is DishonorReturn: the originator dishonors a return
  // (R61, R62, R67-R70).
  async dishonorReturn(txID, code) {
    return this.#move(txID, 'dishonor', { code });
  }

  // contestDishonor is ContestDishonor: the receiving bank contests a
  // dishonored return (R71-R77).
  async contestDishonor(txID, code) {
    return this.#move(txID, 'contest', { code });
  }

  // winDispute is WinDispute; resolves to {transaction, dispute_status,
  // dispute_credit_transaction_id}.
  async winDispute(txID) {
    return this.#dispute(txID, 'won');
  }

  // loseDispute is LoseDispute; resolves as winDispute does.
  async loseDispute(txID) {
    return this.#dispute(txID, 'lost');
  }

  async #dispute(txID, outcome) {
    const a = await this.#post(`transactions/${seg(txID)}/dispute`, { outcome });
    return { transaction: a.transaction, dispute_status: a.dispute_status, dispute_credit_transaction_id: a.dispute_credit_transaction_id };
  }

  // --- cards ---

  // cardAuthorization is CardAuthorization: a swipe of the card subnet,
  // {merchant, foreign, cash, decline_with, hold}; a decline is a RETURNED
  // transaction with its IR code.
  async cardAuthorization(subnetID, amountCents, options = {}) {
    return (await this.#post(`subnets/${seg(subnetID)}/authorize`, fields({ amount_cents: amountCents, ...options }))).transaction;
  }

  // forcePost is ForcePost: a card debit with no authorization.
  async forcePost(subnetID, amountCents, options = {}) {
    return (await this.#post(`subnets/${seg(subnetID)}/force-post`, fields({ amount_cents: amountCents, ...options }))).transaction;
  }

  // refundCard is RefundCard: a merchant's credit to the card.
  async refundCard(subnetID, amountCents, merchant) {
    return (await this.#post(`subnets/${seg(subnetID)}/refund`, fields({ amount_cents: amountCents, merchant }))).transaction;
  }

  // incrementAuthorization is IncrementAuthorization: the hold grows.
  async incrementAuthorization(txID, amountCents) {
    return this.#move(txID, 'increment', { amount_cents: amountCents });
  }

  // reverseAuthorization is ReverseAuthorization: part of the hold, or all
  // of it without amountCents.
  async reverseAuthorization(txID, amountCents) {
    return this.#move(txID, 'reverse', fields({ amount_cents: amountCents }));
  }

  // clearAuthorization is ClearAuthorization: settles the hold for
  // amountCents (the held amount without it).
  async clearAuthorization(txID, amountCents) {
    return this.#move(txID, 'clear', fields({ amount_cents: amountCents }));
  }

  // --- returns planned ahead ---

  // addReturnRule is AddReturnRule: {node_id, account_num, amount_cents,
  // note, code, queue, after, late}; resolves to the rules in force.
  async addReturnRule(rule) {
    const r = fields(rule);
    if (r.after !== undefined) r.after = duration(r.after);
    return (await this.#post('return-rules', r)).rules;
  }

  // returnRules is ReturnRules: the rules in force.
  async returnRules() {
    return (await this.#get('return-rules')).rules;
  }

  // clearReturnRules is ClearReturnRules.
  async clearReturnRules() {
    await this.call('DELETE', 'return-rules');
  }

  // --- faults ---

  // failNext is FailNext: the next call(s) of method on route (as the spec
  // writes it: '/users/{user_id}/nodes') answer errorCode.
  async failNext(method, route, errorCode, times) {
    await this.#post('faults', fields({ method, route, error_code: errorCode, times }));
  }

  // slowNext is SlowNext: the next call(s) of method on route wait delay
  // before answering.
  async slowNext(method, route, delay, times) {
    await this.#post('faults/slow', fields({ method, route, delay: duration(delay), times }));
  }

  // --- webhooks ---

  // webhooks are the captured webhooks, oldest first: all of them (read
  // page by page), or the newest limit.
  async webhooks({ limit } = {}) {
    if (limit !== undefined) return (await this.#get('webhooks', { limit })).webhooks;
    const out = [];
    let cursor;
    for (;;) {
      const a = await this.#get('webhooks', { cursor });
      out.push(...a.webhooks);
      cursor = a.next_cursor;
      if (!cursor) return out;
    }
  }

  // flush is Flush: waits until no delivery is in flight; resolves to how
  // many webhooks were captured.
  async flush() {
    return (await this.#post('webhooks/flush')).webhooks_count;
  }

  // waitWebhook is Wait: the first captured webhook that matches every
  // matcher given ({object_id (or objectId), function, status}), waiting up to timeout
  // (a duration, at most 30 s; 5 s by default) for deliveries in flight.
  // None comes: a ControlError 404 'no_matching_webhook' whose message
  // says what was captured and what is pending.
  async waitWebhook({ object_id, objectId, function: fn, status, timeout = '5s' } = {}) {
    const body = fields({ object_id: object_id ?? objectId, function: fn, status, timeout: duration(timeout) });
    return (await this.call('POST', 'webhooks/wait', body, undefined, this.timeout + 30_000)).webhook;
  }

  // resetWebhooks is Webhooks().Reset: forgets the capture.
  async resetWebhooks() {
    await this.call('DELETE', 'webhooks');
  }

  // chaos is WebhookChaos: the settings in force.
  async chaos() {
    return (await this.#get('webhooks/chaos')).chaos;
  }

  // setChaos is SetWebhookChaos: {seed, default: {duplicate, reorder, ...},
  // subscriptions: {...}}.
  async setChaos(settings) {
    return (await this.call('PUT', 'webhooks/chaos', settings)).chaos;
  }

  // clearChaos turns webhook chaos off.
  async clearChaos() {
    return (await this.call('DELETE', 'webhooks/chaos')).chaos;
  }

  // --- the journal, state, reset ---

  // requests is Requests: the API requests received, oldest first, redacted.
  async requests() {
    return (await this.#get('requests')).requests;
  }

  // resetRequests is ResetRequests: empties the journal.
  async resetRequests() {
    await this.call('DELETE', 'requests');
  }

  // state is Snapshot: the whole state as one document.
  async state() {
    return this.#get('state');
  }

  // restore is Restore: replaces the state with a document state() gave
  // (an object or its JSON). With {copy: true} it takes another platform's
  // document (RestoreCopy, ?copy=true): its objects, clock and ids become
  // this platform's, which keeps its credentials.
  async restore(state, options = {}) {
    await this.call('PUT', 'state', state, options.copy ? { copy: 'true' } : undefined);
  }

  // reset is Reset: empties everything, as if the server had just started
  // (the clock goes on).
  async reset() {
    await this.#post('reset');
  }
}

module.exports = { Control, ControlError };
