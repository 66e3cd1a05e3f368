// The checks of the older official Node client, synapsepay 0.12.0: every
// method that maps to a route, called as its samples.md calls it. compat.js
// runs them after synapsenode's, against the same fake, with a client of its
// own.
//
// synapsepay builds its first URLs from Clients.baseUrl (fixed to the
// sandbox's https://uat-api.synapsefi.com/v3.1; set here to the fake's) and
// every later one from the _links.self.href of the answers, which the fake
// makes with its own base URL. It calls back (err, result); a POST answered
// other than 200 (a 202 MFA step) comes back as result {status, body}, a
// PATCH answered so as err {status, body}.
'use strict';

const sp = require('synapsepay');
const { assert, check, wantTypes, wantList, wantError, baseDocument } = require('./harness.js');
const { Control } = require('../../clients/node/control.js');

const FP = 'compat-pay-fingerprint-1';
const FP2 = 'compat-pay-fingerprint-2';
const IP = '127.0.0.1';
const PHONE = '901.333.3333';

// call turns a synapsepay call taking a callback last into a promise.
function call(fn) {
  return new Promise((resolve, reject) => {
    fn((err, result) => (err ? reject(err) : resolve(result)));
  });
}

// refusal awaits a call that must fail with an HTTP answer and returns
// {status, body}.
async function refusal(p) {
  try {
    await p;
  } catch (err) {
    if (err && err.response) return { status: err.status, body: err.response.body };
    if (err && err.status && err.body) return { status: err.status, body: err.body };
    throw err;
  }
  throw new Error('the call succeeded; want an HTTP error');
}

async function run({ base, clientID, clientSecret }) {
  const ctl = new Control(base);
  const client = new sp.Clients(clientID, clientSecret, false);
  assert.equal(client.baseUrl, 'https://uat-api.synapsefi.com/v3.1');
  client.baseUrl = base;

  let user;
  await check('synapsepay Users.create: POST /users, then POST /oauth; a User with an oauth_key', async () => {
    user = await call((cb) => sp.Users.create(client, FP, IP, {
      logins: [{ email: 'pay@example.com', password: 'test1234', read_only: false }],
      phone_numbers: [PHONE],
      legal_names: ['Pay TestUser'],
      extra: { note: 'Interesting user', supp_id: 'pay-1', is_business: false },
      idempotency_key: 'compat-pay-user-1',
    }, cb));
    assert.ok(user instanceof sp.User, 'a User');
    assert.match(user.oauth_key, /^oauth_/);
    assert.ok(user.json._links.self.href.startsWith(base + '/users/'), user.json._links.self.href);
    assert.equal(user.json.extra.supp_id, 'pay-1');
  });

  await check('synapsepay Users.get (all): the users wrapper with the query', async () => {
    const data = await call((cb) => sp.Users.get(client, { ip_address: IP, page: 1, query: 'Pay' }, cb));
    wantList(data, 'users', 'users_count', 1);
    assert.equal(data.users[0]._id, user.json._id);
  });

  await check('synapsepay Users.get (one, full_dehydrate): a User, authenticated again', async () => {
    const again = await call((cb) => sp.Users.get(client, { _id: user.json._id, fingerprint: FP, ip_address: IP, full_dehydrate: 'yes' }, cb));
    assert.equal(again.json._id, user.json._id);
    assert.match(again.oauth_key, /^oauth_/);
  });

  await check('synapsepay User.grabOauthKey: a fresh oauth_key', async () => {
    const before = user.oauth_key;
    await call((cb) => user.grabOauthKey(cb));
    assert.match(user.oauth_key, /^oauth_/);
    assert.notEqual(user.oauth_key, before);
  });

  await check('synapsepay User.addDocuments: the base document with an id', async () => {
    await call((cb) => user.addDocuments({ documents: [baseDocument('pay@example.com', PHONE, 'Pay TestUser')] }, cb));
    assert.equal(user.json.documents.length, 1);
    wantTypes(user.json.documents[0], { id: 'string' });
  });

  await check('synapsepay User.update: the base document by its id', async () => {
    const id = user.json.documents[0].id;
    await call((cb) => user.update({ documents: [{ id, entity_scope: 'Lawyer', birth_day: 22 }] }, cb));
    assert.equal(user.json.documents.length, 1);
    assert.equal(user.json.documents[0].entity_scope, 'Lawyer');
  });

  await check('synapsepay User.addDoc: a phone number through update', async () => {
    await call((cb) => user.addDoc({ update: { phone_number: '901.444.4444' } }, cb));
    assert.ok(user.json.phone_numbers.includes('901.444.4444'));
  });

  await check('synapsepay User.answerKBA: a PATCH of the user answers the user', async () => {
    const id = user.json.documents[0].id;
    await call((cb) => user.answerKBA({ documents: [{ id, virtual_docs: [{ document_value: '3333', document_type: 'SSN' }] }] }, cb));
    assert.equal(user.json.documents[0].id, id);
    assert.equal(typeof user.json.refresh_token, 'string');
  });

  await check('synapsepay User.registerFingerprint: {status 202, body} with error_code "10"', async () => {
    const r = await call((cb) => user.registerFingerprint(FP2, cb));
    assert.equal(r.status, 202);
    assert.equal(r.body.error_code, '10');
    assert.ok(r.body.phone_numbers.includes(PHONE));
  });

  await check('synapsepay User.supplyDevice2FA: {status 202, body} with success true', async () => {
    const r = await call((cb) => user.supplyDevice2FA(FP2, PHONE, cb));
    assert.equal(r.status, 202);
    assert.equal(r.body.success, true);
  });

  await check('synapsepay User.verifyFingerprint: 200 with an oauth_key', async () => {
    const r = await call((cb) => user.verifyFingerprint(FP2, '123456', cb));
    assert.match(r.oauth_key, /^oauth_/);
  });

  let nodes;
  await check('synapsepay Nodes.create DEPOSIT-US: an array of Node', async () => {
    nodes = await call((cb) => sp.Nodes.create(user, { type: 'DEPOSIT-US', info: { nickname: 'Pay Wallet' }, extra: { supp_id: '123sa' }, idempotency_key: 'compat-pay-node-1' }, cb));
    assert.equal(nodes.length, 1);
    assert.ok(nodes[0] instanceof sp.Node, 'a Node');
    assert.equal(nodes[0].json.info.nickname, 'Pay Wallet');
  });
  const wallet = nodes && nodes[0];

  await check('synapsepay Nodes.create by bank login: {status 202, body.mfa}, then the MFA answer: the nodes', async () => {
    const r = await call((cb) => sp.Nodes.create(user, { type: 'ACH-US', info: { bank_id: 'synapse_good', bank_pw: 'test1234', bank_name: 'fake' } }, cb));
    assert.equal(r.status, 202);
    wantTypes(r.body, { 'mfa.access_token': 'string' });
    const linked = await call((cb) => sp.Nodes.create(user, { access_token: r.body.mfa.access_token, mfa_answer: 'test_answer' }, cb));
    assert.equal(linked.length, 2);
    assert.ok(linked.every((n) => n.json.type === 'ACH-US'));
  });

  let ach;
  await check('synapsepay Nodes.create ACH-US by account and routing number', async () => {
    [ach] = await call((cb) => sp.Nodes.create(user, { type: 'ACH-US', info: { nickname: 'Node Library Checking Account', name_on_account: 'Node Library', account_num: '72347235423', routing_num: '051000017', type: 'PERSONAL', class: 'CHECKING' }, extra: { supp_id: '123sa' } }, cb));
    assert.equal(ach.json.type, 'ACH-US');
  });

  await check('synapsepay Node.resendMicro: the node', async () => {
    const json = await call((cb) => ach.resendMicro(cb));
    assert.equal(json._id, ach.json._id);
  });

  await check('synapsepay Node.update with micro [0.1, 0.1]: CREDIT-AND-DEBIT', async () => {
    const json = await call((cb) => ach.update({ micro: [0.1, 0.1] }, cb));
    assert.equal(json.allowed, 'CREDIT-AND-DEBIT');
  });

  await check('synapsepay Nodes.get (all, and by type): the nodes wrapper', async () => {
    wantList(await call((cb) => sp.Nodes.get(user, null, cb)), 'nodes', 'node_count', 4);
    wantList(await call((cb) => sp.Nodes.get(user, { page: 1, per_page: 10, type: 'DEPOSIT-US' }, cb)), 'nodes', 'node_count', 1);
  });

  await check('synapsepay Nodes.get (one, full_dehydrate, force_refresh): a Node', async () => {
    const n = await call((cb) => sp.Nodes.get(user, { _id: wallet.json._id, full_dehydrate: 'yes', force_refresh: 'yes' }, cb));
    assert.ok(n instanceof sp.Node);
    assert.equal(n.json._id, wallet.json._id);
  });

  await check('synapsepay Node.triggerDummyTransaction: a credit (the default amount)', async () => {
    const t = await call((cb) => wallet.triggerDummyTransaction({ is_credit: 'YES', type: 'INTERCHANGE' }, cb));
    assert.equal(t.to.id, wallet.json._id);
    wantTypes(t, { 'amount.amount': 'number' });
  });

  let card;
  await check('synapsepay Nodes.create CARD-US with the base document', async () => {
    [card] = await call((cb) => sp.Nodes.create(user, { type: 'CARD-US', info: { nickname: 'Pay Card', document_id: user.json.documents[0].id, card_type: 'PHYSICAL' } }, cb));
    assert.equal(card.json.type, 'CARD-US');
  });

  await check('synapsepay Node.shipDebitCard: PATCH ?ship=yes answers the card node', async () => {
    const json = await call((cb) => card.shipDebitCard({ fee_node_id: wallet.json._id, expedite: true }, cb));
    assert.equal(json._id, card.json._id);
  });

  await check('synapsepay Node.resetDebitCard: PATCH ?reset=YES answers the card node', async () => {
    const json = await call((cb) => card.resetDebitCard({ reset: 'YES' }, cb));
    assert.equal(json._id, card.json._id);
  });

  let trans;
  await check('synapsepay Transactions.create: a Transaction, CREATED', async () => {
    const fee = (await ctl.addNode(user.json._id, { type: 'DEPOSIT-US', nickname: 'Fees' }))._id;
    await ctl.addNode(user.json._id, { type: 'DEPOSIT-US', nickname: 'Funded', balance_cents: 50000 })
      .then(async (n) => {
        const [funded] = [await call((cb) => sp.Nodes.get(user, { _id: n._id }, cb))];
        trans = await call((cb) => sp.Transactions.create(funded, {
          to: { type: 'DEPOSIT-US', id: wallet.json._id },
          amount: { amount: 1.10, currency: 'USD' },
          extra: { supp_id: '1283764wqwsdd34wd13212', note: 'Deposit to bank account', process_on: 1, ip: IP },
          fees: [{ fee: 1.00, note: 'Facilitator Fee', to: { id: fee } }],
          idempotency_key: 'compat-pay-trans-1',
        }, cb));
      });
    assert.ok(trans instanceof sp.Transaction, 'a Transaction');
    assert.equal(trans.json.recent_status.status, 'CREATED');
    assert.equal(trans.json.amount.amount, 1.1);
  });

  await check('synapsepay Transactions.get (one): the Transaction', async () => {
    const t = await call((cb) => sp.Transactions.get(trans.node, { _id: trans.json._id }, cb));
    assert.equal(t.json._id, trans.json._id);
  });

  await check('synapsepay Transactions.get (all): trans_count 1', async () => {
    wantList(await call((cb) => sp.Transactions.get(trans.node, null, cb)), 'trans', 'trans_count', 1);
    wantList(await call((cb) => sp.Transactions.get(trans.node, { page: 1, per_page: 5 }, cb)), 'trans', 'trans_count', 1);
  });

  await check('synapsepay Transactions.getUser: the user\'s transactions', async () => {
    wantList(await call((cb) => sp.Transactions.getUser(user, { page: 1, per_page: 20 }, cb)), 'trans', 'trans_count', 2);
  });

  await check('synapsepay Transactions.getClient: the platform\'s transactions', async () => {
    const data = await call((cb) => sp.Transactions.getClient(client, { page: 1, per_page: 100 }, cb));
    wantList(data, 'trans', 'trans_count');
    assert.ok(data.trans.some((t) => t._id === trans.json._id));
  });

  await check('synapsepay Transaction.update: the comment, and the Transaction', async () => {
    await call((cb) => trans.update({ comment: 'hi' }, cb));
    assert.ok(trans.json.recent_status.note.includes('hi') || trans.json.timeline.some((e) => e.note.includes('hi')), 'comment recorded');
  });

  await check('synapsepay Transaction.delete: CANCELED', async () => {
    await call((cb) => trans.delete(cb));
    assert.equal(trans.json.recent_status.status, 'CANCELED');
  });

  await check('synapsepay Transaction.dispute: a settled payment to a merchant', async () => {
    const m = await ctl.addUser({ legal_names: ['Pay Merchant'] });
    const merchant = await ctl.addNode(m._id, { type: 'EXTERNAL-US', nickname: 'Merchant' });
    const t = await call((cb) => sp.Transactions.create(trans.node, { to: { type: 'EXTERNAL-US', id: merchant._id }, amount: { amount: 20, currency: 'USD' }, extra: { ip: IP } }, cb));
    await ctl.settle(t.json._id);
    const json = await call((cb) => t.dispute({ dispute_reason: 'CHARGE_BACK|MERCHANT|DEFECT_OR_NOT_AS_DESC' }, cb));
    assert.equal(json.success, true);
  });

  await check('synapsepay Statements.get (user and node): the statements wrappers', async () => {
    wantList(await call((cb) => sp.Statements.get(user, null, cb)), 'statements', 'statements_count');
    wantList(await call((cb) => sp.Statements.get(user, { page: 1, per_page: 5 }, cb)), 'statements', 'statements_count');
    wantList(await call((cb) => sp.Statements.get(user, { _id: wallet.json._id, page: 1, per_page: 5 }, cb)), 'statements', 'statements_count');
  });

  let subnet;
  await check('synapsepay Subnets.create: a Subnet (the sample\'s body)', async () => {
    subnet = await call((cb) => sp.Subnets.create(wallet, { nickname: 'Test AC/RT' }, cb));
    assert.ok(subnet instanceof sp.Subnet);
    wantTypes(subnet.json, { _id: 'string', account_num: 'string' });
  });

  await check('synapsepay Subnets.get (all, and one with full_dehydrate)', async () => {
    wantList(await call((cb) => sp.Subnets.get(wallet, null, cb)), 'subnets', 'subnets_count', 1);
    wantList(await call((cb) => sp.Subnets.get(wallet, { page: 1, per_page: 5 }, cb)), 'subnets', 'subnets_count', 1);
    const one = await call((cb) => sp.Subnets.get(wallet, { _id: subnet.json._id, full_dehydrate: 'yes' }, cb));
    assert.equal(one.json._id, subnet.json._id);
  });

  await check('synapsepay Subnet.update: allowed LOCKED (the sample) is status INACTIVE', async () => {
    await call((cb) => subnet.update({ allowed: 'LOCKED' }, cb));
    assert.equal(subnet.json.status, 'INACTIVE');
  });

  await check('synapsepay Subnet.shipCard: a card subnet shipped', async () => {
    const cardSubnet = await call((cb) => sp.Subnets.create(wallet, { nickname: 'Pay card', account_class: 'DEBIT_CARD' }, cb));
    const json = await call((cb) => cardSubnet.shipCard({ fee_node_id: wallet.json._id, expedite: false, card_style_id: '555' }, cb));
    assert.equal(json._id, cardSubnet.json._id);
  });

  await check('synapsepay Node.delete: the node, then gone', async () => {
    const n = await call((cb) => ach.delete(cb));
    assert.equal(n, ach);
    const list = await call((cb) => sp.Nodes.get(user, { type: 'ACH-US' }, cb));
    assert.equal(list.nodes.some((x) => x._id === ach.json._id), false);
  });

  let sub;
  await check('synapsepay Subscriptions.create: a Subscription', async () => {
    sub = await call((cb) => sp.Subscriptions.create(client, { scope: ['USERS|POST', 'USER|PATCH', 'NODES|POST', 'NODE|PATCH', 'TRANS|POST', 'TRAN|PATCH'], url: 'http://127.0.0.1:9/pay-hook' }, cb));
    assert.ok(sub instanceof sp.Subscription);
    assert.equal(sub.json.url, 'http://127.0.0.1:9/pay-hook');
  });

  await check('synapsepay Subscriptions.get (all, and one)', async () => {
    const all = await call((cb) => sp.Subscriptions.get(client, null, cb));
    wantList(all, 'subscriptions', 'subscriptions_count');
    const one = await call((cb) => sp.Subscriptions.get(client, { _id: sub.json._id }, cb));
    assert.equal(one.json._id, sub.json._id);
  });

  await check('synapsepay Subscription.update: the scope', async () => {
    await call((cb) => sub.update({ scope: ['USERS|POST'] }, cb));
    assert.deepEqual(sub.json.scope, ['USERS|POST']);
  });

  await check('synapsepay Institutions.get: banks[]', async () => {
    const data = await call((cb) => sp.Institutions.get(client, cb));
    assert.ok(data.banks.some((b) => b.bank_code === 'fake'));
  });

  await check('synapsepay LocateATMs.get: a page of ATMs', async () => {
    const data = await call((cb) => sp.LocateATMs.get(client, { zip: '94114', radius: 5, page: 1, per_page: 2 }, cb));
    wantList(data, 'atms', 'atms_count');
    assert.equal(data.atms.length, 2);
  });

  await check('synapsepay Crypto.getQuotes and Crypto.getMarketData', async () => {
    wantTypes(await call((cb) => sp.Crypto.getQuotes(client, cb)), { BTCUSD: 'number' });
    const data = await call((cb) => sp.Crypto.getMarketData(client, { limit: 2, currency: 'ETH' }, cb));
    assert.equal(data.currency, 'ETH');
    assert.equal(data.data.length, 2);
  });

  await check('synapsepay PublicKey.get (default and given scope)', async () => {
    const d = await call((cb) => sp.PublicKey.get(client, null, cb));
    assert.equal(d.public_key_obj.scope.length, 11);
    const s = await call((cb) => sp.PublicKey.get(client, { scope: 'USERS|GET,USER|GET' }, cb));
    assert.deepEqual(s.public_key_obj.scope, ['USERS|GET', 'USER|GET']);
  });

  await check('synapsepay an error reaches the callback as err with the envelope', async () => {
    const r = await refusal(call((cb) => sp.Nodes.get(user, { _id: '5f0000000000000000000000' }, cb)));
    wantError(r.status, r.body, 404, '404');
  });

  await check('synapsepay every API call it made: a known route, no 404 from routing', async () => {
    const requests = await ctl.requests();
    const bad = requests.filter((q) => q.route === '' || q.route === undefined);
    assert.deepEqual(bad.map((q) => q.summary), []);
  });
}

module.exports = { run };
