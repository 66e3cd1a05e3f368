// Drives a running synapsefake through the official Node client, synapsenode
// 1.2.17, and checks what the client sees of every answer.
//
//	node compat.js http://127.0.0.1:PORT/v3.1
//
// run.sh starts the server and calls this. The client id and secret come
// from SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET. Settling a
// transaction and funding a node go through the fake's control API
// (/_fake/..., no credentials needed), with Node's global fetch. Prints one line per check and a
// closing "N passed, M failed"; exits 1 when a check failed.
'use strict';

const assert = require('node:assert/strict');
const axios = require('axios'); // the copy synapsenode itself uses
const { Client } = require('synapsenode');

const base = process.argv[2];
if (!base || !/^https?:\/\/.+\/v3\.1$/.test(base)) {
  console.error('usage: node compat.js http://HOST:PORT/v3.1');
  process.exit(2);
}
const origin = base.replace(/\/v3\.1$/, '');
const clientID = process.env.SYNAPSEFAKE_CLIENT_ID;
const clientSecret = process.env.SYNAPSEFAKE_CLIENT_SECRET;
if (!clientID || !clientSecret) {
  console.error('compat.js: set SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET');
  process.exit(2);
}

const FP1 = 'compat-fingerprint-1';
const FP2 = 'compat-fingerprint-2';
const IP = '127.0.0.1';
const PHONE = '901.111.1111';

// Stop a hung run rather than wait for CI's limit.
setTimeout(() => {
  console.log('FAIL - the run took more than 60 s');
  finish();
}, 60_000).unref();

// Every answer the client receives, success or error, for the checks at the end.
const answers = [];
axios.interceptors.response.use(
  (resp) => {
    answers.push({ method: resp.config.method, url: resp.config.url, status: resp.status, headers: resp.headers, data: resp.data });
    return resp;
  },
  (err) => {
    if (err.response) {
      const r = err.response;
      answers.push({ method: r.config.method, url: r.config.url, status: r.status, headers: r.headers, data: r.data });
    }
    return Promise.reject(err);
  },
);

let passed = 0;
let failed = 0;

// check runs one named check; a failure is reported and counted, and the run
// goes on (a later check that needs the missing state fails too).
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   - ${name}`);
  } catch (err) {
    failed++;
    const detail = err && err.response
      ? `HTTP ${err.response.status} ${JSON.stringify(err.response.data)}`
      : (err && err.message) || String(err);
    console.log(`FAIL - ${name}: ${detail.split('\n').join('\n       ')}`);
  }
}

function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// rejection awaits p, which must fail with an HTTP answer, and returns it.
async function rejection(p) {
  try {
    await p;
  } catch (err) {
    if (err.response) return err.response;
    throw err;
  }
  throw new Error('the call succeeded; want an HTTP error');
}

// control calls the fake's control API.
async function control(method, path, body) {
  const resp = await fetch(origin + path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await resp.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: HTTP ${resp.status}, body is not JSON: ${text}`);
  }
  if (resp.status !== 200) {
    throw new Error(`${method} ${path}: HTTP ${resp.status} ${text}`);
  }
  return data;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

// wantTypes asserts the JSON type of each named field of obj ('a.b' paths).
function wantTypes(obj, types) {
  for (const [path, want] of Object.entries(types)) {
    const got = path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
    assert.equal(typeOf(got), want, `${path} is ${typeOf(got)} (${JSON.stringify(got)}), want ${want}`);
  }
}

// wantList asserts the list wrapper of FIDELITY.md around items/countKey.
function wantList(data, items, countKey, count) {
  assert.ok(isObject(data), 'body is a JSON object');
  assert.equal(data.error_code, '0');
  assert.equal(data.http_code, '200');
  assert.equal(data.success, true);
  wantTypes(data, { limit: 'number', page_count: 'number', [items]: 'array', [countKey]: 'number' });
  assert.equal(data[countKey], count, `${countKey}`);
  assert.equal(data[items].length, count, `${items}.length`);
}

// wantTransaction asserts the shape and status of a transaction.
function wantTransaction(t, { id, from, to, amount, status, statusID }) {
  assert.ok(isObject(t), 'transaction is a JSON object');
  wantTypes(t, {
    _id: 'string',
    '_links.self.href': 'string',
    'amount.amount': 'number',
    'amount.currency': 'string',
    'client.id': 'string',
    'client.name': 'string',
    extra: 'object',
    'extra.created_on': 'number',
    'extra.process_on': 'number',
    fees: 'array',
    'from.id': 'string',
    'from.type': 'string',
    'to.id': 'string',
    'to.type': 'string',
    'recent_status.date': 'number',
    'recent_status.note': 'string',
    'recent_status.status': 'string',
    'recent_status.status_id': 'string',
    timeline: 'array',
  });
  if (id !== undefined) assert.equal(t._id, id);
  assert.equal(t.from.id, from);
  assert.equal(t.to.id, to);
  assert.equal(t.amount.amount, amount);
  assert.equal(t.amount.currency, 'USD');
  assert.equal(t.recent_status.status, status);
  assert.equal(t.recent_status.status_id, statusID);
  assert.ok(t._links.self.href.endsWith(`/nodes/${from}/trans/${t._id}`), `_links.self.href ${t._links.self.href}`);
  for (const e of t.timeline) {
    wantTypes(e, { date: 'number', note: 'string', status: 'string', status_id: 'string' });
  }
  const last = t.timeline[t.timeline.length - 1];
  assert.equal(last.status, status, 'last timeline entry');
  assert.equal(t.timeline[0].status, 'CREATED', 'first timeline entry');
  assert.equal(t.timeline[0].status_id, '1');
}

// wantNode asserts the shape of a DEPOSIT-US node and its balance.
function wantNode(n, { userID, nickname, balance }) {
  assert.ok(isObject(n), 'node is a JSON object');
  wantTypes(n, {
    _id: 'string',
    '_links.self.href': 'string',
    allowed: 'string',
    'client.id': 'string',
    extra: 'object',
    info: 'object',
    'info.balance.amount': 'number',
    'info.balance.currency': 'string',
    'info.nickname': 'string',
    is_active: 'boolean',
    timeline: 'array',
    type: 'string',
    user_id: 'string',
  });
  assert.equal(n.type, 'DEPOSIT-US');
  assert.equal(n.user_id, userID);
  assert.equal(n.allowed, 'CREDIT-AND-DEBIT');
  assert.equal(n.is_active, true);
  assert.equal(n.info.nickname, nickname);
  assert.equal(n.info.balance.currency, 'USD');
  if (balance !== undefined) assert.equal(n.info.balance.amount, balance);
}

async function main() {
  const client = new Client({
    client_id: clientID,
    client_secret: clientSecret,
    fingerprint: FP1,
    ip_address: IP,
    isProduction: false,
  });
  // 1.2.17 has no host option; User copies client.host when it is made.
  client.host = base;

  let user;
  await check('createUser: POST /users then POST /oauth/{id} gives a User with an oauth_key', async () => {
    user = await client.createUser({
      logins: [{ email: 'compat@example.com' }],
      phone_numbers: [PHONE],
      legal_names: ['Compat User'],
      extra: { supp_id: 'compat-1', cip_tag: 1, is_business: false },
    }, IP);
    assert.equal(typeof user.id, 'string');
    assert.ok(user.id.length > 0, 'user.id is empty');
    assert.match(user.oauth_key, /^oauth_/);
    assert.equal(user.headers['X-SP-USER'], `${user.oauth_key}|${FP1}`);
  });

  await check('createUser: the user object has the fields the client reads, with their types', async () => {
    const u = user.body;
    wantTypes(u, {
      _id: 'string',
      '_links.self.href': 'string',
      'client.id': 'string',
      'client.name': 'string',
      documents: 'array',
      emails: 'array',
      extra: 'object',
      'extra.date_joined': 'number',
      is_hidden: 'boolean',
      legal_names: 'array',
      logins: 'array',
      permission: 'string',
      phone_numbers: 'array',
      photos: 'array',
      refresh_token: 'string',
      success: 'boolean',
    });
    assert.equal(u.success, true);
    assert.deepEqual(u.legal_names, ['Compat User']);
    assert.deepEqual(u.phone_numbers, [PHONE]);
    assert.equal(u.logins[0].email, 'compat@example.com');
    assert.equal(u.extra.supp_id, 'compat-1');
    assert.equal(u.client.id, clientID);
    assert.ok(u._links.self.href.endsWith(`/users/${u._id}`), `_links.self.href ${u._links.self.href}`);
    assert.equal('error' in u, false, 'a success body carries no error key');
  });

  await check('_oauthUser: POST /oauth/{id} with only refresh_token answers 200 and the oauth fields', async () => {
    const data = await user._oauthUser({ refresh_token: await user._grabRefreshToken() });
    wantTypes(data, {
      client_id: 'string',
      client_name: 'string',
      expires_at: 'string',
      expires_in: 'string',
      oauth_key: 'string',
      refresh_expires_in: 'number',
      refresh_token: 'string',
      scope: 'array',
      user_id: 'string',
      success: 'boolean',
    });
    assert.equal(data.user_id, user.id);
    assert.equal(data.client_id, clientID);
    assert.equal(data.expires_in, '7200');
    assert.match(data.expires_at, /^[0-9]+$/);
    assert.ok(data.scope.includes('TRANS|POST'), `scope ${data.scope}`);
    assert.equal(user.oauth_key, data.oauth_key, 'the client stored the new key');
  });

  await check('getUser: GET /users/{id}?full_dehydrate=no answers the user with its refresh_token', async () => {
    const again = await client.getUser(user.id);
    assert.equal(again.id, user.id);
    assert.equal(typeof again.body.refresh_token, 'string');
    assert.match(again.oauth_key, /^oauth_/);
  });

  await check('registerNewFingerprint: 202 with error_code "10", error.en and the phone numbers', async () => {
    const resp = await user.registerNewFingerprint(FP2);
    assert.equal(resp.status, 202);
    wantTypes(resp.data, { error_code: 'string', http_code: 'string', 'error.en': 'string', phone_numbers: 'array', success: 'boolean' });
    assert.equal(resp.data.error_code, '10');
    assert.equal(resp.data.http_code, '202');
    assert.equal(resp.data.success, false);
    assert.deepEqual(resp.data.phone_numbers, [PHONE]);
  });

  await check('supplyDevice2FA: 202, success true and a message naming the phone', async () => {
    const resp = await user.supplyDevice2FA(FP2, PHONE);
    assert.equal(resp.status, 202);
    wantTypes(resp.data, { error_code: 'string', http_code: 'string', 'message.en': 'string', success: 'boolean' });
    assert.equal(resp.data.error_code, '10');
    assert.equal(resp.data.http_code, '202');
    assert.equal(resp.data.success, true);
    assert.ok(resp.data.message.en.includes(PHONE), `message.en ${resp.data.message.en}`);
  });

  await check('verifyFingerprint2FA: a wrong pin is refused with 409 / "400"', async () => {
    const r = await rejection(user.verifyFingerprint2FA(FP2, '000000'));
    assert.equal(r.status, 409);
    assert.equal(r.data.error_code, '400');
    assert.equal(r.data.http_code, '409');
  });

  let fp2Key;
  await check('verifyFingerprint2FA: pin 123456 answers 200 with an oauth_key', async () => {
    const resp = await user.verifyFingerprint2FA(FP2, '123456');
    assert.equal(resp.status, 200);
    wantTypes(resp.data, { oauth_key: 'string', refresh_token: 'string', expires_in: 'string', user_id: 'string' });
    assert.match(resp.data.oauth_key, /^oauth_/);
    assert.equal(resp.data.user_id, user.id);
    fp2Key = resp.data.oauth_key;
  });

  await check('getUser with the new fingerprint: the oauth step now answers 200 at once', async () => {
    // 1.2.17 does not store the key verifyFingerprint2FA returns; an app
    // gets the user again with the now-registered fingerprint.
    user = await client.getUser(user.id, { fingerprint: FP2, ip_address: IP });
    assert.match(user.oauth_key, /^oauth_/);
    assert.notEqual(user.oauth_key, fp2Key, 'a fresh key');
    assert.equal(user.headers['X-SP-USER'], `${user.oauth_key}|${FP2}`);
  });

  const nodes = {};
  for (const [name, nickname] of [['receiving', 'Receiving'], ['spare', 'Spare']]) {
    await check(`createNode ${nickname}: 200 with the nodes wrapper (node_count 1, no page)`, async () => {
      const resp = await user.createNode({ type: 'DEPOSIT-US', info: { nickname } }, `compat-node-${name}`);
      assert.equal(resp.status, 200);
      const d = resp.data;
      assert.equal(d.error_code, '0');
      assert.equal(d.http_code, '200');
      assert.equal(d.success, true);
      wantTypes(d, { limit: 'number', page_count: 'number', node_count: 'number', nodes: 'array' });
      assert.equal(d.node_count, 1);
      assert.equal('page' in d, false, 'the create-node wrapper has no page');
      wantNode(d.nodes[0], { userID: user.id, nickname, balance: 0 });
      nodes[name] = d.nodes[0]._id;
    });
  }

  await check('control API: POST /_fake/users/{id}/nodes seeds a funded DEPOSIT-US node', async () => {
    const d = await control('POST', `/_fake/users/${user.id}/nodes`, { type: 'DEPOSIT-US', nickname: 'Funded', balance_cents: 100000 });
    assert.equal(d.success, true);
    assert.ok(isObject(d.node), 'node is an object');
    assert.equal(typeof d.node._id, 'string');
    assert.equal(d.node.user_id, user.id);
    assert.equal(d.node.balance_cents, 100000);
    nodes.funded = d.node._id;
  });

  await check('getNode: the funded node holds 1000 (a number) and is the user\'s', async () => {
    const resp = await user.getNode(nodes.funded);
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    wantNode(resp.data, { userID: user.id, nickname: 'Funded', balance: 1000 });
  });

  await check('getAllUserNodes: 200 with node_count 3', async () => {
    const resp = await user.getAllUserNodes({ page: 1, per_page: 10 });
    assert.equal(resp.status, 200);
    wantList(resp.data, 'nodes', 'node_count', 3);
    assert.equal(resp.data.page, 1);
    assert.deepEqual(resp.data.nodes.map((n) => n._id).sort(), Object.values(nodes).sort());
  });

  let settledID;
  await check('createTransaction: 200, CREATED with status_id "1" and numeric amount', async () => {
    const resp = await user.createTransaction(nodes.funded, {
      to: { type: 'DEPOSIT-US', id: nodes.receiving },
      amount: { amount: 12.34, currency: 'USD' },
      extra: { ip: IP, note: 'compat settle' },
    }, 'compat-trans-1');
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    wantTransaction(resp.data, { from: nodes.funded, to: nodes.receiving, amount: 12.34, status: 'CREATED', statusID: '1' });
    assert.equal(resp.data.extra.note, 'compat settle');
    assert.equal(resp.data.recent_status.note, 'Transaction Created.');
    wantTypes(resp.data.fees[0], { fee: 'number', note: 'string', 'to.id': 'string' });
    settledID = resp.data._id;
  });

  await check('getTransaction with the idempotency key the client resends: still CREATED', async () => {
    // 1.2.17 keeps the last idempotency key in its headers and sends it on
    // every later call; the fake ignores it off POST.
    assert.equal(user.headers['X-SP-IDEMPOTENCY-KEY'], 'compat-trans-1');
    const resp = await user.getTransaction(nodes.funded, settledID);
    assert.equal(resp.status, 200);
    wantTransaction(resp.data, { id: settledID, from: nodes.funded, to: nodes.receiving, amount: 12.34, status: 'CREATED', statusID: '1' });
  });

  await check('control API: POST /_fake/transactions/{id}/settle settles it', async () => {
    const d = await control('POST', `/_fake/transactions/${settledID}/settle`);
    assert.equal(d.success, true);
    assert.ok(isObject(d.transaction), 'transaction is an object');
    assert.equal(d.transaction._id, settledID);
    assert.equal(d.transaction.status, 'SETTLED');
  });

  await check('getTransaction after settle: SETTLED, status_id "4", timeline CREATED .. SETTLED', async () => {
    const resp = await user.getTransaction(nodes.funded, settledID);
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    wantTransaction(resp.data, { id: settledID, from: nodes.funded, to: nodes.receiving, amount: 12.34, status: 'SETTLED', statusID: '4' });
    assert.deepEqual(resp.data.timeline.map((e) => e.status_id), ['1', '2', '3', '4']);
  });

  await check('getNode after settle: balances moved by 12.34 on both sides', async () => {
    const from = await user.getNode(nodes.funded);
    const to = await user.getNode(nodes.receiving);
    assert.equal(from.data.info.balance.amount, 987.66);
    assert.equal(to.data.info.balance.amount, 12.34);
  });

  await check('commentOnStatus: PATCH the settled transaction answers 200 with the transaction', async () => {
    const resp = await user.commentOnStatus(nodes.funded, settledID, { comment: 'checked by compat.js' });
    assert.equal(resp.status, 200);
    assert.equal(resp.data._id, settledID);
    assert.equal(resp.data.recent_status.status, 'SETTLED');
  });

  await check('deleteTransaction of a SETTLED transaction is refused with cannot_cancel_transaction', async () => {
    const r = await rejection(user.deleteTransaction(nodes.funded, settledID));
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}`);
    assert.equal(r.data.http_code, String(r.status));
    assert.equal(r.data.error.code, 'cannot_cancel_transaction');
    assert.equal(r.data.success, false);
  });

  let canceledID;
  await check('createTransaction of a second one: CREATED', async () => {
    const resp = await user.createTransaction(nodes.funded, {
      to: { type: 'DEPOSIT-US', id: nodes.spare },
      amount: { amount: 5, currency: 'USD' },
      extra: { ip: IP },
    }, 'compat-trans-2');
    assert.equal(resp.status, 200);
    wantTransaction(resp.data, { from: nodes.funded, to: nodes.spare, amount: 5, status: 'CREATED', statusID: '1' });
    canceledID = resp.data._id;
  });

  await check('deleteTransaction: 200 with the transaction CANCELED, status_id "5"', async () => {
    const resp = await user.deleteTransaction(nodes.funded, canceledID);
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    wantTransaction(resp.data, { id: canceledID, from: nodes.funded, to: nodes.spare, amount: 5, status: 'CANCELED', statusID: '5' });
  });

  await check('getTransaction after cancel: CANCELED, and the spare node got nothing', async () => {
    const resp = await user.getTransaction(nodes.funded, canceledID);
    wantTransaction(resp.data, { id: canceledID, from: nodes.funded, to: nodes.spare, amount: 5, status: 'CANCELED', statusID: '5' });
    const spare = await user.getNode(nodes.spare);
    assert.equal(spare.data.info.balance.amount, 0);
  });

  await check('getAllNodeTransactions: 200 with trans_count 2', async () => {
    const resp = await user.getAllNodeTransactions(nodes.funded, { page: 1, per_page: 20 });
    assert.equal(resp.status, 200);
    wantList(resp.data, 'trans', 'trans_count', 2);
    assert.deepEqual(resp.data.trans.map((t) => t._id).sort(), [settledID, canceledID].sort());
  });

  await check('getTransaction of an unknown id: 404 / "404" in the error envelope', async () => {
    const r = await rejection(user.getTransaction(nodes.funded, '5f0000000000000000000000'));
    assert.equal(r.status, 404);
    assert.equal(r.data.error_code, '404');
    assert.equal(r.data.http_code, '404');
    assert.equal(r.data.success, false);
    assert.equal(typeof r.data.error.en, 'string');
  });

  await check('every answer the client saw: Content-Type application/json and a JSON object', async () => {
    assert.ok(answers.length >= 20, `only ${answers.length} answers recorded`);
    for (const a of answers) {
      const where = `${a.method.toUpperCase()} ${a.url} (${a.status})`;
      assert.equal(a.headers['content-type'], 'application/json', where);
      assert.ok(isObject(a.data), `${where}: body is ${typeOf(a.data)}`);
    }
  });

  await check('every answer the client saw: success bodies are 200 or 202 and carry no error key except MFA', async () => {
    for (const a of answers) {
      const where = `${a.method.toUpperCase()} ${a.url} (${a.status})`;
      if (a.status === 200) {
        assert.equal('error' in a.data, false, `${where}: error key on a 200`);
        assert.equal(a.data.success, true, `${where}: success`);
      }
      if (a.status === 202) {
        assert.equal(a.data.error_code, '10', where);
      }
      if (a.status >= 300) {
        assert.equal(a.data.success, false, `${where}: success`);
        wantTypes(a.data, { error_code: 'string', http_code: 'string', 'error.en': 'string' });
        assert.equal(a.data.http_code, String(a.status), where);
      }
    }
  });
}

main().then(finish, (err) => {
  console.log(`FAIL - unexpected error: ${(err && err.stack) || err}`);
  failed++;
  finish();
});
