// Drives a running synapsefake through the official Node clients, synapsenode
// 1.2.17 (every method that maps to a route, here) and then synapsepay 0.12.0
// (compat_synapsepay.js), and checks what each client sees of every answer.
//
//	node compat.js http://127.0.0.1:PORT/v3.1
//
// run.sh starts the server and calls this. The client id and secret come
// from SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET. Settling a
// transaction and funding a node go through the fake's control API
// (/_fake/..., no credentials needed), with clients/node/control.js, the Node
// client of the control API (the synapsefake package's). Prints one
// line per check and a closing "N passed, M failed" for both clients; exits 1
// when a check failed.
'use strict';

const harness = require('./harness.js');
const axios = require('axios'); // the copy synapsenode itself uses
const { Client } = require('synapsenode');
const { Control } = require('../../clients/node/control.js');

const { assert, check, finish, isObject, typeOf, wantTypes, wantList, wantError, baseDocument } = harness;

const base = process.argv[2];
if (!base || !/^https?:\/\/.+\/v3\.1$/.test(base)) {
  console.error('usage: node compat.js http://HOST:PORT/v3.1');
  process.exit(2);
}
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

// ctl is the fake's control API.
const ctl = new Control(base);

// Stop a hung run rather than wait for CI's limit.
setTimeout(() => {
  console.log('FAIL - the run took more than 90 s');
  finish();
}, 90_000).unref();

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
    const node = await ctl.addNode(user.id, { type: 'DEPOSIT-US', nickname: 'Funded', balance_cents: 100000 });
    assert.ok(isObject(node), 'node is an object');
    assert.equal(typeof node._id, 'string');
    assert.equal(node.user_id, user.id);
    assert.equal(node.balance_cents, 100000);
    nodes.funded = node._id;
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
    const tx = await ctl.settle(settledID);
    assert.ok(isObject(tx), 'transaction is an object');
    assert.equal(tx._id, settledID);
    assert.equal(tx.status, 'SETTLED');
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


  // The rest of synapsenode 1.2.17: every Client and User method that maps
  // to a route (client.updateIpAddress only changes headers).
  await check('getAllUsers: the users wrapper, each user with its refresh_token', async () => {
    const resp = await client.getAllUsers({ query: 'Compat', page: 1, per_page: 10, show_refresh_tokens: 'yes' });
    assert.equal(resp.status, 200);
    wantList(resp.data, 'users', 'users_count', 1);
    assert.equal(resp.data.users[0]._id, user.id);
    assert.equal(typeof resp.data.users[0].refresh_token, 'string');
  });

  await check('getPlatformNodes: GET /nodes lists the three nodes', async () => {
    const resp = await client.getPlatformNodes({ page: 1, per_page: 20 });
    assert.equal(resp.status, 200);
    wantList(resp.data, 'nodes', 'node_count', 3);
  });

  await check('getPlatformTransactions: GET /trans lists the two transactions', async () => {
    const resp = await client.getPlatformTransactions({ page: 1, per_page: 20 });
    assert.equal(resp.status, 200);
    wantList(resp.data, 'trans', 'trans_count', 2);
    assert.deepEqual(resp.data.trans.map((t) => t._id).sort(), [settledID, canceledID].sort());
  });

  await check('getInstitutions: banks[] with the sandbox bank "fake"', async () => {
    const resp = await client.getInstitutions();
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    wantTypes(resp.data, { banks: 'array' });
    const fake = resp.data.banks.find((b) => b.bank_code === 'fake');
    assert.ok(fake, 'no bank_code "fake"');
    wantTypes(fake, { bank_name: 'string', features: 'array', is_active: 'boolean', logo: 'string' });
  });

  await check('issuePublicKey: the default scope, 900 s', async () => {
    const resp = await client.issuePublicKey();
    assert.equal(resp.status, 200);
    assert.equal(resp.data.public_key_obj.expires_in, '900');
    wantTypes(resp.data, { 'public_key_obj.public_key': 'string', 'public_key_obj.expires_in': 'string', 'public_key_obj.scope': 'array' });
    assert.match(resp.data.public_key_obj.public_key, /^public_key_/);
    assert.equal(resp.data.public_key_obj.scope.length, 11);
  });

  await check('issuePublicKey(scope, userId): that scope, 24 h', async () => {
    const resp = await client.issuePublicKey(['USERS|GET', 'USER|GET'], user.id);
    assert.equal(resp.status, 200);
    assert.deepEqual(resp.data.public_key_obj.scope, ['USERS|GET', 'USER|GET']);
    assert.equal(resp.data.public_key_obj.expires_in, '86400');
  });

  // Before createSubscription: 1.2.17 keeps the idempotency key given there
  // on every later request of the Client, so a second POST to the same route
  // would be refused with 409 / "450".
  await check('verifyRoutingNumber: the bank of 051000017', async () => {
    const resp = await client.verifyRoutingNumber({ routing_num: '051000017', type: 'ACH-US' });
    assert.equal(resp.data.success, true);
    assert.equal(resp.data.routing_num, '051000017');
    assert.equal(resp.data.bank_name, 'BANK OF AMERICA');
  });

  await check('verifyRoutingNumber of a bad checksum: 409 / "400"', async () => {
    const r = await rejection(client.verifyRoutingNumber({ routing_num: '123456789', type: 'ACH-US' }));
    wantError(r.status, r.data, 409, '400');
  });

  let subID;
  await check('createSubscription: the subscription with its default scope', async () => {
    const resp = await client.createSubscription('http://127.0.0.1:9/compat-hook', undefined, 'compat-sub-1');
    assert.equal(resp.status, 200);
    wantTypes(resp.data, { _id: 'string', '_links.self.href': 'string', is_active: 'boolean', scope: 'array', url: 'string' });
    assert.equal(resp.data.is_active, true);
    assert.deepEqual(resp.data.scope, ['USERS|POST', 'USER|PATCH', 'NODES|POST', 'NODE|PATCH', 'TRANS|POST', 'TRAN|PATCH']);
    subID = resp.data._id;
  });

  await check('getAllSubscriptions: subscriptions_count 1', async () => {
    const resp = await client.getAllSubscriptions({ page: 1, per_page: 10 });
    wantList(resp.data, 'subscriptions', 'subscriptions_count', 1);
    assert.equal(resp.data.subscriptions[0]._id, subID);
  });

  await check('getSubscription: the subscription', async () => {
    const resp = await client.getSubscription(subID);
    assert.equal(resp.data._id, subID);
    assert.equal(resp.data.url, 'http://127.0.0.1:9/compat-hook');
  });

  await check('updateSubscription: is_active false', async () => {
    const resp = await client.updateSubscription(subID, { is_active: false });
    assert.equal(resp.data._id, subID);
    assert.equal(resp.data.is_active, false);
  });

  await check('getWebhookLogs: the logs wrapper', async () => {
    const resp = await client.getWebhookLogs();
    assert.equal(resp.status, 200);
    wantList(resp.data, 'logs', 'logs_count');
  });

  for (const [what, q] of [['zip', { zip: '94114', radius: 5, page: 1, per_page: 2 }], ['lat/lon', { lat: 37.77, lon: -122.42, page: 2, per_page: 3 }]]) {
    await check(`locateAtms by ${what}: the atms wrapper, a page of ${q.per_page}`, async () => {
      const resp = await client.locateAtms(q);
      wantList(resp.data, 'atms', 'atms_count');
      assert.equal(resp.data.atms.length, q.per_page);
      assert.equal(resp.data.page, q.page);
      wantTypes(resp.data.atms[0], { 'atmLocation.address.city': 'string', 'atmLocation.coordinates.latitude': 'number', distance: 'number' });
    });
  }

  await check('verifyAddress: the normalized address, deliverable', async () => {
    const resp = await client.verifyAddress({ address_street: '1 Market St', address_city: 'San Francisco', address_subdivision: 'CA', address_postal_code: '94105', address_country_code: 'US' });
    assert.equal(resp.status, 200);
    assert.equal(resp.data.deliverability, 'usps_deliverable');
    assert.equal(resp.data.normalized_address.address_street, '1 MARKET ST');
  });

  await check('getCryptoQuotes: a number per pair', async () => {
    const resp = await client.getCryptoQuotes();
    wantTypes(resp.data, { BTCUSD: 'number', USDBTC: 'number', ETHUSD: 'number' });
  });

  await check('getCryptoMarketData: limit days of BTC', async () => {
    const resp = await client.getCryptoMarketData({ limit: 3, currency: 'BTC' });
    assert.equal(resp.data.currency, 'BTC');
    assert.equal(resp.data.data.length, 3);
    wantTypes(resp.data.data[0], { date: 'number', open: 'number', close: 'number' });
  });

  await check('getTradeMarketData: the ticker\'s day', async () => {
    const resp = await client.getTradeMarketData({ ticker: 'AAPL' });
    assert.equal(resp.data.ticker, 'AAPL');
    wantTypes(resp.data, { open: 'number', close: 'number', previous_close: 'number', volume: 'number' });
  });

  let docID;
  await check('addUserKyc: the base document gets an id, the physical document a status', async () => {
    const resp = await user.addUserKyc({ documents: [baseDocument('compat@example.com', PHONE, 'Compat User')] });
    assert.equal(resp.status, 200);
    assert.equal(resp.data._id, user.id);
    assert.equal(resp.data.documents.length, 1);
    const d = resp.data.documents[0];
    wantTypes(d, { id: 'string', physical_docs: 'array', virtual_docs: 'array', social_docs: 'array' });
    wantTypes(d.physical_docs[0], { id: 'string', document_type: 'string', status: 'string' });
    docID = d.id;
  });

  await check('updateUser: adds a login and a phone number', async () => {
    const resp = await user.updateUser({ update: { login: { email: 'compat2@example.com' }, phone_number: '901.222.2222' } });
    assert.ok(resp.data.logins.some((l) => l.email === 'compat2@example.com'), 'login added');
    assert.ok(resp.data.phone_numbers.includes('901.222.2222'), 'phone added');
  });

  await check('updateUser of the base document by its id: updated in place', async () => {
    const resp = await user.updateUser({ documents: [{ id: docID, entity_scope: 'Lawyer' }] });
    assert.equal(resp.data.documents.length, 1);
    assert.equal(resp.data.documents[0].id, docID);
    assert.equal(resp.data.documents[0].entity_scope, 'Lawyer');
  });

  await check('generateUboForm: a REG_GG physical document on the base document', async () => {
    const contact = { document_id: docID, relationship_to_entity: 'CEO' };
    const resp = await user.generateUboForm({
      entity_info: { cryptocurrency: false, msb: { federal: false, state: false }, public_company: false, majority_owned_by_listed: false, registered_SEC: false, regulated_financial: false, gambling: false, document_id: docID },
      signer: contact,
      compliance_contact: contact,
      primary_controlling_contact: contact,
      owners: [{ document_id: docID, title: 'CEO', ownership: 95 }],
    });
    assert.equal(resp.status, 200);
    assert.ok(resp.data.documents[0].physical_docs.some((p) => p.document_type === 'REG_GG'), 'REG_GG filed');
  });

  await check('getUserTransactions: trans_count 2', async () => {
    const resp = await user.getUserTransactions({ page: 1, per_page: 20 });
    wantList(resp.data, 'trans', 'trans_count', 2);
  });

  let dummyID;
  await check('triggerDummyTransactions: a credit of 10 to the spare node', async () => {
    const resp = await user.triggerDummyTransactions(nodes.spare, { amount: 10, is_credit: 'YES' });
    assert.equal(resp.status, 200);
    assert.equal(resp.data.amount.amount, 10);
    assert.equal(resp.data.to.id, nodes.spare);
    dummyID = resp.data._id;
  });

  await check('the funding trap: a transfer counting on the CREATED dummy credit -> 409 naming it; settled, it goes', async () => {
    const body = { to: { type: 'DEPOSIT-US', id: nodes.receiving }, amount: { amount: 10, currency: 'USD' }, extra: { ip: IP } };
    const err = await user.createTransaction(nodes.spare, body, 'compat-trap-1').then(() => null, (e) => e);
    assert.ok(err && err.response, `want a refusal, got ${err}`);
    wantError(err.response.status, err.response.data, 409, '400', 'insufficient_funds');
    for (const part of [`dummy transaction ${dummyID}`, 'is still CREATED', 'advance the clock or settle it', `/_fake/nodes/${nodes.spare}/fund`]) {
      assert.ok(err.response.data.error.en.includes(part), `${part} not in ${err.response.data.error.en}`);
    }
    assert.equal((await ctl.settle(dummyID)).status, 'SETTLED');
    assert.equal((await ctl.node(nodes.spare)).balance_cents, 1000);
    const resp = await user.createTransaction(nodes.spare, body, 'compat-trap-2');
    assert.equal(resp.data.recent_status.status, 'CREATED');
  });

  await check('createBatchTransactions: two transactions from the funded node', async () => {
    const resp = await user.createBatchTransactions(nodes.funded, {
      transactions: [1, 2].map((i) => ({
        to: { type: 'DEPOSIT-US', id: nodes.receiving },
        amount: { amount: i, currency: 'USD' },
        extra: { ip: IP, idempotency_key: `compat-batch-${i}` },
      })),
    });
    wantList(resp.data, 'trans', 'trans_count', 2);
    assert.deepEqual(resp.data.errors, []);
    assert.equal(resp.data.page, 1);
  });

  await check('getStatementsByUser and getStatementsByNode: the statements wrappers', async () => {
    wantList((await user.getStatementsByUser({ page: 1, per_page: 5 })).data, 'statements', 'statements_count');
    wantList((await user.getStatementsByNode(nodes.funded, { page: 1, per_page: 5 })).data, 'statements', 'statements_count');
  });

  await check('getAllUserNodes by type: the DEPOSIT-US nodes', async () => {
    const resp = await user.getAllUserNodes({ type: 'DEPOSIT-US' });
    wantList(resp.data, 'nodes', 'node_count', 3);
  });

  await check('getNode with full_dehydrate and force_refresh', async () => {
    const resp = await user.getNode(nodes.funded, { full_dehydrate: 'yes', force_refresh: 'yes' });
    assert.equal(resp.data._id, nodes.funded);
  });

  await check('updateNode: the nickname', async () => {
    const resp = await user.updateNode(nodes.spare, { nickname: 'Spare 2' });
    assert.equal(resp.data.info.nickname, 'Spare 2');
  });

  let achID;
  await check('createNode ACH-US by account and routing number: the recorded ACH-US shape', async () => {
    // Each POST gets a key of its own: 1.2.17 resends the last key on every
    // later request, and a key reused on the same route is 409 / "450".
    const resp = await user.createNode({ type: 'ACH-US', info: { nickname: 'Checking', name_on_account: 'Compat User', account_num: '72347235423', routing_num: '051000017', type: 'PERSONAL', class: 'CHECKING' } }, 'compat-node-ach');
    const n = resp.data.nodes[0];
    assert.equal(n.type, 'ACH-US');
    assert.equal(n.info.balance.amount, '0.00');
    assert.equal(n.info.account_num, '5423');
    achID = n._id;
  });

  await check('reinitiateMicroDeposits: 200 with the node', async () => {
    const resp = await user.reinitiateMicroDeposits(achID);
    assert.equal(resp.data._id, achID);
  });

  await check('verifyMicroDeposits with the sandbox amounts: CREDIT-AND-DEBIT', async () => {
    const resp = await user.verifyMicroDeposits(achID, { micro: [0.1, 0.1] });
    assert.equal(resp.data._id, achID);
    assert.equal(resp.data.allowed, 'CREDIT-AND-DEBIT');
  });

  let mfaToken;
  await check('createNode ACH-US by bank login: 202 / "10" with the MFA question', async () => {
    const resp = await user.createNode({ type: 'ACH-US', info: { bank_id: 'synapse_good', bank_pw: 'test1234', bank_name: 'fake' } }, 'compat-node-login');
    assert.equal(resp.status, 202);
    assert.equal(resp.data.error_code, '10');
    wantTypes(resp.data, { 'mfa.access_token': 'string', 'mfa.message': 'string', 'mfa.type': 'string' });
    mfaToken = resp.data.mfa.access_token;
  });

  await check('verifyAchMfa with a wrong answer: 409 / "400"', async () => {
    const r = await rejection(user.verifyAchMfa(mfaToken, 'wrong answer', 'compat-mfa-0'));
    wantError(r.status, r.data, 409, '400');
  });

  await check('verifyAchMfa with test_answer: the linked ACH-US nodes', async () => {
    const resp = await user.verifyAchMfa(mfaToken, 'test_answer', 'compat-mfa-1');
    wantList(resp.data, 'nodes', 'node_count', 2);
    assert.ok(resp.data.nodes.every((n) => n.type === 'ACH-US'), 'ACH-US nodes');
  });

  await check('deleteNode: the ACH-US node, then gone from the list', async () => {
    const resp = await user.deleteNode(achID);
    assert.equal(resp.status, 200);
    const list = await user.getAllUserNodes({ type: 'ACH-US' });
    assert.equal(list.data.nodes.some((n) => n._id === achID), false);
  });

  let cardNode;
  await check('createNode CARD-US with the base document: a card node', async () => {
    const resp = await user.createNode({ type: 'CARD-US', info: { nickname: 'Card', document_id: docID, card_type: 'PHYSICAL' } }, 'compat-node-card');
    cardNode = resp.data.nodes[0];
    assert.equal(cardNode.type, 'CARD-US');
  });

  for (const [method, query] of [['shipCardNode', 'ship'], ['resetCardNode', 'reset']]) {
    await check(`${method}: client bug, a ReferenceError before any request; the request it means answers 200`, async () => {
      const before = answers.length;
      assert.throws(() => (method === 'shipCardNode' ? user.shipCardNode(cardNode._id, { fee_node_id: nodes.funded, expedite: true }) : user.resetCardNode(cardNode._id)), ReferenceError);
      assert.equal(answers.length, before, 'no request sent');
      // What 1.2.17's apiReqsUser.js would send had User.js called it.
      const body = method === 'shipCardNode' ? { fee_node_id: nodes.funded, expedite: true } : {};
      const resp = await axios.patch(`${base}/users/${user.id}/nodes/${cardNode._id}?${query}=yes`, body, { headers: user.headers });
      assert.equal(resp.data._id, cardNode._id);
    });
  }

  await check('generateApplePayToken: push-provisioning data for the card node', async () => {
    const resp = await user.generateApplePayToken(cardNode._id, { certificate: 'compat-cert', nonce: 'compat-nonce', nonce_signature: 'compat-sig' });
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
  });

  let subnetID;
  await check('createSubnet: a debit card subnet', async () => {
    const resp = await user.createSubnet(nodes.funded, { nickname: 'Compat card', account_class: 'DEBIT_CARD' }, 'compat-subnet-1');
    wantTypes(resp.data, { _id: 'string', account_class: 'string', card_number: 'string', status: 'string' });
    assert.equal(resp.data.account_class, 'CARD');
    subnetID = resp.data._id;
  });

  await check('getAllSubnets: subnets_count 1', async () => {
    wantList((await user.getAllSubnets(nodes.funded, { page: 1, per_page: 10 })).data, 'subnets', 'subnets_count', 1);
  });

  await check('getSubnet with full_dehydrate: the full card number', async () => {
    const resp = await user.getSubnet(nodes.funded, subnetID, { full_dehydrate: true });
    assert.equal(resp.data._id, subnetID);
    assert.equal(resp.data.card_number.length, 16);
  });

  await check('updateSubnet: preferences', async () => {
    const resp = await user.updateSubnet(nodes.funded, subnetID, { preferences: { allow_foreign_transactions: true } });
    assert.equal(resp.data.preferences.allow_foreign_transactions, true);
  });

  await check('shipCard: the subnet with its card style', async () => {
    const resp = await user.shipCard(nodes.funded, subnetID, { fee_node_id: nodes.funded, expedite: true, card_style_id: '555' });
    assert.equal(resp.data._id, subnetID);
    assert.equal(resp.data.card_style_id, '555');
  });

  await check('disputeCardTransaction: a settled payment to a merchant off the platform', async () => {
    const m = await ctl.addUser({ legal_names: ['Merchant Co'] });
    const merchant = await ctl.addNode(m._id, { type: 'EXTERNAL-US', nickname: 'Merchant' });
    const t = await user.createTransaction(nodes.funded, {
      to: { type: 'EXTERNAL-US', id: merchant._id },
      amount: { amount: 20, currency: 'USD' },
      extra: { ip: IP },
    }, 'compat-trans-merchant');
    await ctl.settle(t.data._id);
    const resp = await user.disputeCardTransaction(nodes.funded, t.data._id, { dispute_reason: 'CHARGE_BACK|MERCHANT|DEFECT_OR_NOT_AS_DESC' });
    assert.equal(resp.status, 200);
    assert.equal(resp.data.success, true);
    const after = await user.getTransaction(nodes.funded, t.data._id);
    assert.equal(after.data.extra.other.disputed, true);
  });

  await check('deleteExistingDocument: the base document is gone', async () => {
    const resp = await user.deleteExistingDocument({ documents: [{ id: docID, permission_scope: 'DELETE_DOCUMENT' }] });
    assert.equal(resp.status, 200);
    assert.equal(resp.data.documents.some((d) => d.id === docID), false);
  });

  await check('updateIpAddress (no request): later calls send the new X-SP-USER-IP', async () => {
    const headers = user.updateIpAddress('10.0.0.7');
    assert.equal(headers['X-SP-USER-IP'], '10.0.0.7');
    const resp = await user.getNode(nodes.funded);
    assert.equal(resp.status, 200);
  });

  await check('every answer the client saw: Content-Type application/json and a JSON object', async () => {
    assert.ok(answers.length >= 20, `only ${answers.length} answers recorded`);
    for (const a of answers) {
      const where = `${a.method.toUpperCase()} ${a.url} (${a.status})`;
      assert.equal(a.headers['content-type'], 'application/json', where);
      assert.ok(isObject(a.data), `${where}: body is ${typeOf(a.data)}`);
    }
  });

  await check('every answer the client saw: success bodies are 200 or 202 and carry no error (MFA: error_code "10")', async () => {
    for (const a of answers) {
      const where = `${a.method.toUpperCase()} ${a.url} (${a.status})`;
      if (a.status === 200) {
        // The push-to-wallet answer (applepay) carries the docs' empty error.
        const emptyError = isObject(a.data.error) && Object.keys(a.data.error).length === 0;
        assert.ok(!('error' in a.data) || emptyError, `${where}: error key on a 200`);
        // The reference answers of the spec (address verification, crypto
        // quotes) have no success field.
        if ('success' in a.data) assert.equal(a.data.success, true, `${where}: success`);
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

main()
  .then(() => require('./compat_synapsepay.js').run({ base, clientID, clientSecret }))
  .then(finish, (err) => {
    harness.fail(`unexpected error: ${(err && err.stack) || err}`);
    finish();
  });
