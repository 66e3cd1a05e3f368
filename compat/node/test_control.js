// Checks clients/node/control.js, the Node client of the control API, against
// a running synapsefake: every method once as it should work, and each
// method that can be refused once with a refusal (mostly an unknown id),
// which must reject with a ControlError carrying the error envelope.
//
//	node test_control.js http://127.0.0.1:PORT/v3.1
//
// run.sh starts the server (manual clock) and calls this before compat.js.
// The client id and secret come from SYNAPSEFAKE_CLIENT_ID and
// SYNAPSEFAKE_CLIENT_SECRET (for the API calls a transfer and a dispute
// need). It ends with reset(), so the server is empty again. Prints one line
// per check and closes with "N passed, M failed"; exits 1 when a check
// failed.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { Control, ControlError } = require('../../clients/node/control.js');

const base = process.argv[2];
if (!base) {
  console.error('usage: node test_control.js http://HOST:PORT/v3.1');
  process.exit(2);
}
const gateway = `${process.env.SYNAPSEFAKE_CLIENT_ID}|${process.env.SYNAPSEFAKE_CLIENT_SECRET}`;
const FP = 'control-fingerprint';
const UNKNOWN = '0123456789abcdef01234567';

// ctl notes every method of Control that the checks call.
const called = new Set();
const ctl = new Proxy(new Control(base), {
  get(target, name, receiver) {
    const v = Reflect.get(target, name, receiver);
    if (typeof v === 'function' && typeof name === 'string') {
      called.add(name);
      return v.bind(target);
    }
    return v;
  },
});

let passed = 0;
let failed = 0;

async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   - ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL - ${name}: ${(err && err.message) || err}`);
  }
}

// refused asserts that fn rejects with a ControlError of this HTTP status,
// error_code and error.code, carrying the envelope.
async function refused(fn, status, errorCode, code) {
  let err;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ControlError, `want a ControlError ${status} / ${errorCode} ${code}, got ${err}`);
  assert.deepEqual([err.status, err.errorCode, err.httpCode, err.code], [status, errorCode, String(status), code],
    '[status, errorCode, httpCode, code]');
  assert.ok(typeof err.en === 'string' && err.en, `no error.en: ${JSON.stringify(err.envelope)}`);
  assert.equal(err.envelope.success, false);
  assert.equal(err.envelope.error.en, err.en);
  return err;
}

const s = {};

// api is one call of the API (/v3.1) as the user, with key or a fresh oauth
// key (the clock moves past a key's lifetime).
async function api(method, path, body, key) {
  const k = key || (await ctl.oauthKey(s.user, FP));
  const resp = await fetch(`${ctl.origin}/v3.1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-SP-GATEWAY': gateway, 'X-SP-USER': `${k}|${FP}`, 'X-SP-USER-IP': '127.0.0.1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await resp.json();
  return { status: resp.status, data };
}

async function transfer(amount, note) {
  const r = await api('POST', `/users/${s.user}/nodes/${s.node}/trans`, {
    to: { type: 'DEPOSIT-US', id: s.savings }, amount: { amount, currency: 'USD' }, extra: { ip: '127.0.0.1', note },
  });
  assert.equal(r.status, 200, JSON.stringify(r.data));
  return r.data._id;
}

async function main() {
  // The webhook receiver; a GET answers the control token it was sent, for
  // the token check.
  const hooks = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'GET') return res.end();
      res.setHeader('Content-Type', 'application/json');
      return res.end(JSON.stringify({ success: true, token: req.headers['x-fake-control-token'] || null }));
    });
  });
  await new Promise((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const hookURL = `http://127.0.0.1:${hooks.address().port}/hook`;

  await check('new Control(baseURL) takes the API\'s base URL or the origin', async () => {
    assert.equal(new Control('http://127.0.0.1:1/v3.1/').origin, 'http://127.0.0.1:1');
    assert.equal(new Control('http://127.0.0.1:1').origin, 'http://127.0.0.1:1');
  });

  await check('new Control(baseURL, {token}) sends the token as X-Fake-Control-Token', async () => {
    const origin = hookURL.replace(/\/hook$/, '');
    assert.equal((await new Control(origin, { token: 's3cret' }).call('GET', 'echo')).token, 's3cret');
    assert.equal((await new Control(origin).call('GET', 'echo')).token, null);
  });

  await check('a refusal is a ControlError with status, errorCode, httpCode, code, en, envelope', async () => {
    const err = await refused(() => ctl.user(UNKNOWN), 404, '404', 'unable_to_locate_user');
    assert.deepEqual([err.method, err.path], ['GET', `/_fake/users/${UNKNOWN}`]);
    assert.match(err.message, /404.*unable_to_locate_user/);
  });

  await check('call, the transport: any endpoint; an unknown path -> 404 not_found, a wrong method -> 405', async () => {
    const a = await ctl.call('GET', 'clock');
    assert.deepEqual([a.success, typeof a.now], [true, 'number']);
    await refused(() => ctl.call('GET', 'nowhere'), 404, '404', 'not_found');
    const err = await refused(() => ctl.call('DELETE', 'clock'), 405, '410', 'method_not_allowed');
    assert.match(err.en, /takes GET/);
  });

  // --- users, nodes, subnets, keys ---

  await check('addUser; an unknown permission -> 400 / "200" invalid_permission, nothing added', async () => {
    const before = (await ctl.users({ limit: 1000 })).length;
    const u = await ctl.addUser({ email: 'ada@example.com', legal_names: ['Ada Lovelace'], fingerprint: FP, permission: 'SEND-AND-RECEIVE' });
    assert.deepEqual([u.emails, u.legal_names, u.permission], [['ada@example.com'], ['Ada Lovelace'], 'SEND-AND-RECEIVE']);
    assert.ok(u.refresh_token);
    s.user = u._id;
    await refused(() => ctl.addUser({ permission: 'ROYALTY' }), 400, '200', 'invalid_permission');
    assert.equal((await ctl.users({ limit: 1000 })).length, before + 1);
  });

  await check('users({limit}), newest first; limit 0 -> 400 invalid_limit', async () => {
    s.bob = (await ctl.addUser({ legal_names: ['Bob'] }))._id;
    assert.deepEqual((await ctl.users()).slice(0, 2).map((u) => u._id), [s.bob, s.user]);
    assert.equal((await ctl.users({ limit: 1 })).length, 1);
    await refused(() => ctl.users({ limit: 0 }), 400, '200', 'invalid_limit');
  });

  await check('user; an unknown id -> 404 unable_to_locate_user', async () => {
    assert.deepEqual((await ctl.user(s.user)).legal_names, ['Ada Lovelace']);
    await refused(() => ctl.user(UNKNOWN), 404, '404', 'unable_to_locate_user');
  });

  await check('addNode; an unknown user -> 404', async () => {
    const n = await ctl.addNode(s.user, { nickname: 'Checking', balance_cents: 10000 });
    assert.deepEqual([n.type, n.nickname, n.balance_cents, n.available_cents, n.user_id], ['DEPOSIT-US', 'Checking', 10000, 10000, s.user]);
    s.node = n._id;
    s.savings = (await ctl.addNode(s.user, { nickname: 'Savings' }))._id;
    await refused(() => ctl.addNode(UNKNOWN, { nickname: 'x' }), 404, '404', 'unable_to_locate_user');
  });

  await check('userNodes; an unknown user -> 404', async () => {
    assert.deepEqual((await ctl.userNodes(s.user)).map((n) => n._id), [s.node, s.savings]);
    await refused(() => ctl.userNodes(UNKNOWN), 404, '404', 'unable_to_locate_user');
  });

  await check('node; an unknown id -> 404 unable_to_locate_node', async () => {
    assert.equal((await ctl.node(s.node)).balance_cents, 10000);
    await refused(() => ctl.node(UNKNOWN), 404, '404', 'unable_to_locate_node');
  });

  await check('fund -> the node after; an unknown node -> 404', async () => {
    const n = await ctl.fund(s.node, 2500);
    assert.deepEqual([n.balance_cents, n.available_cents], [12500, 12500]);
    assert.equal((await ctl.node(s.node)).balance_cents, 12500);
    await refused(() => ctl.fund(UNKNOWN, 1), 404, '404', 'unable_to_locate_node');
  });

  await check('addSubnet (an account number and an active card); an unknown node -> 404', async () => {
    const a = await ctl.addSubnet(s.user, s.node, { nickname: 'Account' });
    assert.equal(a.account_class, 'CHECKING');
    assert.ok(a.account_num);
    const c = await ctl.addSubnet(s.user, s.node, { nickname: 'Card', account_class: 'CARD', status: 'ACTIVE' });
    assert.deepEqual([c.account_class, c.status], ['CARD', 'ACTIVE']);
    s.card = c._id;
    await refused(() => ctl.addSubnet(s.user, UNKNOWN), 404, '404', 'unable_to_locate_node');
  });

  await check('oauthKey works on the API; an unknown user -> 404', async () => {
    const key = await ctl.oauthKey(s.user, FP);
    const r = await api('GET', `/users/${s.user}/nodes/${s.node}`, undefined, key);
    assert.equal(r.status, 200);
    assert.equal(r.data._id, s.node);
    await refused(() => ctl.oauthKey(UNKNOWN, FP), 404, '404', 'unable_to_locate_user');
  });

  await check('forceMFA, mfaPin; each with an unknown user -> 404', async () => {
    await ctl.forceMFA(s.user);
    assert.match(await ctl.mfaPin(s.user), /^\d{6}$/);
    await refused(() => ctl.forceMFA(UNKNOWN), 404, '404', 'unable_to_locate_user');
    await refused(() => ctl.mfaPin(UNKNOWN), 404, '404', 'unable_to_locate_user');
  });

  await check('setPermission; an unknown user -> 404', async () => {
    assert.equal((await ctl.setPermission(s.bob, 'LOCKED')).permission, 'LOCKED');
    assert.equal((await ctl.user(s.bob)).permission, 'LOCKED');
    await refused(() => ctl.setPermission(UNKNOWN, 'LOCKED'), 404, '404', 'unable_to_locate_user');
  });

  // subDocument is the user's one sub-document of this kind.
  const subDocument = (user, kind) => {
    const subs = user.documents.flatMap((d) => d.sub_documents).filter((sd) => sd.kind === kind);
    assert.equal(subs.length, 1, `${kind} sub-documents`);
    return subs[0];
  };
  const history = (user) => user.permission_history.map((h) => [h.permission, h.by]);

  await check('addUser({documents}): sub-documents under review (status REVIEWING), or decided by the sandbox\'s values; a bad status -> 400 invalid_status', async () => {
    const u = await ctl.addUser({
      legal_names: ['Kim Review'],
      documents: [
        { kind: 'virtual', type: 'SSN', value: '2222', status: 'REVIEWING' },
        { kind: 'physical', type: 'GOVT_ID', value: 'data:image/png;base64,SUQ=', status: 'REVIEWING' },
      ],
    });
    assert.deepEqual([u.permission, u.documents.length, u.documents[0].permission_scope], ['UNVERIFIED', 1, 'UNVERIFIED']);
    for (const [kind, type] of [['virtual', 'SSN'], ['physical', 'GOVT_ID']]) {
      const sd = subDocument(u, kind);
      assert.deepEqual([sd.document_type, sd.status, sd.review_at], [type, 'SUBMITTED|REVIEWING', null], kind);
    }
    assert.deepEqual(history(u), [['UNVERIFIED', 'created']]);
    assert.deepEqual((await ctl.user(u._id)).documents, u.documents);
    s.kyc = u._id;
    // Without a status the sandbox's test values decide at once: an SSN ending 1111 is INVALID.
    const bad = (await ctl.addUser({ documents: [{ kind: 'virtual', type: 'SSN', value: '1111' }] }))._id;
    const got = await ctl.user(bad);
    assert.deepEqual([subDocument(got, 'virtual').status, got.permission], ['SUBMITTED|INVALID', 'UNVERIFIED']);
    await refused(() => ctl.addUser({ documents: [{ kind: 'virtual', type: 'SSN', value: '2222', status: 'GREAT' }] }), 400, '200', 'invalid_status');
  });

  await check('reviewDocument VALID (the SSN): RECEIVE; a bad status -> 400 / "200" invalid_status, an unknown document -> 404 unable_to_locate_document, nothing changed', async () => {
    const virtual = subDocument(await ctl.user(s.kyc), 'virtual');
    const u = await ctl.reviewDocument(s.kyc, virtual.id, 'VALID');
    assert.equal(subDocument(u, 'virtual').status, 'SUBMITTED|VALID');
    assert.equal(subDocument(u, 'physical').status, 'SUBMITTED|REVIEWING');
    assert.deepEqual([u.permission, u.documents[0].permission_scope], ['RECEIVE', 'RECEIVE|1000|DAILY']);
    assert.deepEqual(history(u), [['UNVERIFIED', 'created'], ['RECEIVE', 'documents']]);
    const before = await ctl.user(s.kyc);
    const err = await refused(() => ctl.reviewDocument(s.kyc, virtual.id, 'GREAT'), 400, '200', 'invalid_status');
    assert.match(err.en, /GREAT/);
    await refused(() => ctl.reviewDocument(s.kyc, UNKNOWN, 'VALID'), 404, '404', 'unable_to_locate_document');
    await refused(() => ctl.reviewDocument(UNKNOWN, virtual.id, 'VALID'), 404, '404', 'unable_to_locate_user');
    await refused(() => ctl.call('POST', `users/${s.kyc}/documents/${virtual.id}/review`, {}), 400, '200', 'missing_status');
    assert.deepEqual(await ctl.user(s.kyc), before);
  });

  await check('reviewDocuments: every sub-document in review -> SEND-AND-RECEIVE; refusals change nothing; documents never lower the permission', async () => {
    const before = await ctl.user(s.kyc);
    await refused(() => ctl.reviewDocuments(s.kyc, 'nope'), 400, '200', 'invalid_status');
    await refused(() => ctl.reviewDocuments(UNKNOWN, 'VALID'), 404, '404', 'unable_to_locate_user');
    assert.deepEqual(await ctl.user(s.kyc), before);
    const u = await ctl.reviewDocuments(s.kyc, 'SUBMITTED|VALID'); // the wire's form works too
    assert.deepEqual(u.documents.flatMap((d) => d.sub_documents.map((sd) => sd.status)), ['SUBMITTED|VALID', 'SUBMITTED|VALID']);
    assert.deepEqual([u.permission, u.documents[0].permission_scope], ['SEND-AND-RECEIVE', 'SEND|RECEIVE|1000|DAILY']);
    assert.deepEqual(history(u).at(-1), ['SEND-AND-RECEIVE', 'documents']);
    assert.deepEqual(await ctl.user(s.kyc), u);
    // None left in review: nothing changes. Documents never lower the permission.
    assert.deepEqual(await ctl.reviewDocuments(s.kyc, 'INVALID'), u);
    const after = await ctl.reviewDocument(s.kyc, subDocument(u, 'virtual').id, 'INVALID');
    assert.deepEqual([after.permission, subDocument(after, 'virtual').status], ['SEND-AND-RECEIVE', 'SUBMITTED|INVALID']);
  });

  await check('addSubscription; a bad url -> 400 invalid_url', async () => {
    const sub = await ctl.addSubscription(hookURL, ['USERS|POST', 'NODES|POST', 'TRANS|POST', 'TRAN|PATCH']);
    assert.deepEqual([sub.url, sub.is_active], [hookURL, true]);
    await refused(() => ctl.addSubscription('not a url'), 400, '200', 'invalid_url');
  });

  // --- the clock ---

  await check('now, advance (a Go duration or ms); a negative duration -> 400 invalid_duration', async () => {
    const t0 = await ctl.nowMs();
    assert.deepEqual(await ctl.now(), new Date(t0)); // a Date
    assert.deepEqual(await ctl.advance('90m'), new Date(t0 + 90 * 60_000)); // a Date
    assert.equal((await ctl.advance(30_000)).getTime(), t0 + 90 * 60_000 + 30_000); // ms
    await refused(() => ctl.advance('-1h'), 400, '200', 'invalid_duration');
    assert.equal(await ctl.nowMs(), t0 + 90 * 60_000 + 30_000);
  });

  await check('advanceToNextBusinessDay, advanceToCutoff; an unknown cutoff -> 400', async () => {
    const t0 = await ctl.nowMs();
    assert.ok(((await ctl.advanceToNextBusinessDay()).getTime()) > t0);
    const t1 = await ctl.nowMs();
    assert.ok(((await ctl.advanceToCutoff('ach')).getTime()) > t1);
    await refused(() => ctl.advanceToCutoff('noon'), 400, '200', 'invalid_cutoff');
  });

  // --- transactions ---

  await check('transaction, transactions({userID} / {nodeID}); unknown ids -> 404', async () => {
    const tx = await transfer(10);
    const t = await ctl.transaction(tx);
    assert.deepEqual([t.status, t.amount_cents, t.from_node_id, t.to_node_id], ['CREATED', 1000, s.node, s.savings]);
    assert.equal((await ctl.node(s.node)).available_cents, 11500);
    assert.equal((await ctl.transactions({ nodeID: s.node }))[0]._id, tx);
    assert.equal((await ctl.transactions({ userID: s.user, limit: 1 }))[0]._id, tx);
    s.tx = tx;
    await refused(() => ctl.transaction(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.transactions({ userID: UNKNOWN }), 404, '404', 'unable_to_locate_user');
    await refused(() => ctl.transactions({ nodeID: UNKNOWN }), 404, '404', 'unable_to_locate_node');
  });

  await check('settle; an unknown id -> 404', async () => {
    const t = await ctl.settle(s.tx);
    assert.deepEqual(t.timeline.map((e) => e.status), ['CREATED', 'PROCESSING-DEBIT', 'PROCESSING-CREDIT', 'SETTLED']);
    assert.equal((await ctl.node(s.savings)).balance_cents, 1000);
    await refused(() => ctl.settle(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
  });

  await check('return; an unknown id -> 404; returnTransaction is return', async () => {
    const t = await ctl.return(s.tx, 'R01');
    assert.deepEqual([t.status, t.code], ['RETURNED', 'R01']);
    assert.equal((await ctl.node(s.savings)).balance_cents, 0);
    await refused(() => ctl.return(UNKNOWN, 'R01'), 404, '404', 'unable_to_locate_transaction');
    const err = await refused(() => ctl.returnTransaction(UNKNOWN, 'R01'), 404, '404', 'unable_to_locate_transaction');
    assert.equal(err.reason, err.en);
  });

  await check('dishonorReturn, contestDishonor of an ACH return; an unknown id -> 404, a transaction not returned -> 409 / "410"', async () => {
    // An ACH debit returned R01 two days ago: only an ACH return can be dishonored.
    const w = await ctl.loadWorld({
      users: [{ name: 'dora', legal_names: ['Dora Dishonor'], nodes: [
        { name: 'checking', balance: '500.00' },
        { name: 'bank', type: 'ACH-US', account_num: '123456789', routing_num: '021000021' }] }],
      transactions: [
        { name: 'open', from: 'checking', to: 'bank', amount: 10 },
        { name: 'returned', from: 'bank', to: 'checking', amount: 30, date: '-2d', status: 'RETURNED', code: 'R01' }],
    });
    const returned = w.transactions.returned;
    assert.equal((await ctl.dishonorReturn(returned, 'R68'))._id, returned);
    assert.equal((await ctl.contestDishonor(returned, 'R73'))._id, returned);
    await refused(() => ctl.dishonorReturn(UNKNOWN, 'R68'), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.contestDishonor(UNKNOWN, 'R73'), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.dishonorReturn(w.transactions.open, 'R68'), 409, '410', 'not_returned');
  });

  await check('scheduleReturn({after: "24h"}); an unknown id -> 404', async () => {
    const tx = await transfer(1);
    assert.equal((await ctl.scheduleReturn(tx, 'R01', { after: '24h' })).status, 'CREATED');
    await ctl.settle(tx);
    await ctl.advance('24h');
    assert.equal((await ctl.transaction(tx)).status, 'RETURNED');
    await refused(() => ctl.scheduleReturn(UNKNOWN, 'R01'), 404, '404', 'unable_to_locate_transaction');
  });

  await check('queue, release, advanceTransaction, cancel; unknown ids -> 404, cancel after the debit -> 409 / "410"', async () => {
    const tx = await transfer(2);
    assert.equal((await ctl.queue(tx)).status, 'QUEUED-BY-SYNAPSE');
    assert.equal((await ctl.release(tx)).status, 'CREATED');
    assert.equal((await ctl.advanceTransaction(tx, 'PROCESSING-DEBIT')).status, 'PROCESSING-DEBIT');
    assert.equal((await ctl.cancel(await transfer(3))).status, 'CANCELED');
    for (const move of [() => ctl.queue(UNKNOWN), () => ctl.release(UNKNOWN), () => ctl.cancel(UNKNOWN),
      () => ctl.advanceTransaction(UNKNOWN, 'PROCESSING-DEBIT')]) {
      await refused(move, 404, '404', 'unable_to_locate_transaction');
    }
    await refused(() => ctl.cancel(tx), 409, '410', 'cannot_cancel_transaction');
  });

  // --- cards ---

  await check('cardAuthorization (approved, declined); an unknown subnet -> 404', async () => {
    const t = await ctl.cardAuthorization(s.card, 1200, { merchant: 'Compat Shop' });
    assert.deepEqual([t.status, t.amount_cents], ['CREATED', 1200]);
    const d = await ctl.cardAuthorization(s.card, 500, { decline_with: 'IR51' });
    assert.deepEqual([d.status, d.code], ['RETURNED', 'IR51']);
    s.swipe = t._id;
    await refused(() => ctl.cardAuthorization(UNKNOWN, 1), 404, '404', 'unable_to_locate_subnet');
  });

  await check('increment/reverse/clearAuthorization; unknown ids -> 404', async () => {
    assert.equal((await ctl.incrementAuthorization(s.swipe, 300)).amount_cents, 1500);
    assert.equal((await ctl.reverseAuthorization(s.swipe, 500)).amount_cents, 1000);
    const t = await ctl.clearAuthorization(s.swipe);
    assert.deepEqual([t.status, t.amount_cents], ['SETTLED', 1000]);
    const other = (await ctl.cardAuthorization(s.card, 100))._id;
    assert.equal((await ctl.reverseAuthorization(other)).status, 'CANCELED');
    await refused(() => ctl.incrementAuthorization(UNKNOWN, 1), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.reverseAuthorization(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.clearAuthorization(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
  });

  await check('forcePost, refundCard; unknown subnets -> 404', async () => {
    assert.equal((await ctl.forcePost(s.card, 200, { merchant: 'Late Shop' })).status, 'SETTLED');
    assert.equal((await ctl.refundCard(s.card, 100, 'Compat Shop')).amount_cents, 100);
    await refused(() => ctl.forcePost(UNKNOWN, 1), 404, '404', 'unable_to_locate_subnet');
    await refused(() => ctl.refundCard(UNKNOWN, 1), 404, '404', 'unable_to_locate_subnet');
  });

  await check('winDispute, loseDispute of disputed swipes; unknown ids -> 404', async () => {
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const tx = (await ctl.cardAuthorization(s.card, 400, { merchant: 'Compat Shop' }))._id;
      await ctl.settle(tx);
      const r = await api('PATCH', `/users/${s.user}/nodes/${s.node}/trans/${tx}/dispute`, { dispute_reason: 'CHARGE_BACK|UNAUTHORIZED_TRANSACTION' });
      assert.equal(r.status, 200, JSON.stringify(r.data));
      ids.push(tx);
    }
    const won = await ctl.winDispute(ids[0]);
    assert.deepEqual([won.transaction._id, won.dispute_status], [ids[0], 'WON']);
    assert.equal((await ctl.loseDispute(ids[1])).dispute_status, 'LOST');
    await refused(() => ctl.winDispute(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
    await refused(() => ctl.loseDispute(UNKNOWN), 404, '404', 'unable_to_locate_transaction');
  });

  // --- return rules, faults ---

  await check('addReturnRule, returnRules, clearReturnRules; a rule matching nothing -> 400 invalid_rule', async () => {
    const rules = await ctl.addReturnRule({ note: 'bounce me', code: 'R01' });
    assert.deepEqual(rules.map((r) => [r.note, r.code]), [['bounce me', 'R01']]);
    assert.equal((await ctl.returnRules()).length, 1);
    const tx = await transfer(1, 'please bounce me');
    await ctl.settle(tx);
    assert.equal((await ctl.transaction(tx)).status, 'RETURNED');
    await ctl.clearReturnRules();
    assert.deepEqual(await ctl.returnRules(), []);
    await refused(() => ctl.addReturnRule({ code: 'R01' }), 400, '200', 'invalid_rule');
  });

  await check('failNext, slowNext; an unknown route -> 400 invalid_fault', async () => {
    const route = '/users/{user_id}/nodes/{node_id}';
    await ctl.failNext('GET', route, '503');
    assert.equal((await api('GET', `/users/${s.user}/nodes/${s.node}`)).status, 503);
    assert.equal((await api('GET', `/users/${s.user}/nodes/${s.node}`)).status, 200);
    await ctl.slowNext('GET', route, '1ms');
    assert.equal((await api('GET', `/users/${s.user}/nodes/${s.node}`)).status, 200);
    await refused(() => ctl.failNext('GET', '/nowhere', '503'), 400, '200', 'invalid_fault');
    await refused(() => ctl.slowNext('GET', '/nowhere', '1s'), 400, '200', 'invalid_fault');
  });

  // --- webhooks ---

  await check('flush -> webhooks_count; webhooks(), webhooks({limit}); limit 0 -> 400', async () => {
    const count = await ctl.flush();
    assert.ok(count > 0, `webhooks_count ${count}`);
    const all = await ctl.webhooks();
    assert.equal(all.length, count);
    assert.deepEqual(await ctl.webhooks({ limit: 1 }), all.slice(-1));
    await refused(() => ctl.webhooks({ limit: 0 }), 400, '200', 'invalid_limit');
  });

  await check('waitWebhook({object_id, function}); none -> 404 no_matching_webhook, no matcher -> 400', async () => {
    const n = (await ctl.addNode(s.user, { nickname: 'Waited' }))._id;
    const h = await ctl.waitWebhook({ object_id: n, function: 'NODES|POST' });
    assert.deepEqual([h.object_id, h.function], [n, 'NODES|POST']);
    const again = await ctl.waitWebhook({ objectId: n, function: 'NODES|POST' });
    assert.deepEqual([again.object_id, again.function, again.date], [n, 'NODES|POST', h.date]);
    assert.ok(h.deliveries.every((d) => d.attempts.every((a) => a.code === 200)), JSON.stringify(h.deliveries));
    const err = await refused(() => ctl.waitWebhook({ object_id: UNKNOWN, timeout: '0s' }), 404, '404', 'no_matching_webhook');
    assert.match(err.en, /captured/);
    await refused(() => ctl.waitWebhook(), 400, '200', 'missing_match');
  });

  await check('resetWebhooks', async () => {
    await ctl.resetWebhooks();
    assert.deepEqual(await ctl.webhooks(), []);
  });

  await check('setChaos, chaos, clearChaos; a probability of 2 -> 400', async () => {
    const c = await ctl.setChaos({ seed: 7, default: { duplicate: 0.5 } });
    assert.deepEqual([c.seed, c.default.duplicate], [7, 0.5]);
    assert.equal((await ctl.chaos()).seed, 7);
    const off = await ctl.clearChaos();
    assert.equal((off.default || {}).duplicate || 0, 0);
    await refused(() => ctl.setChaos({ default: { duplicate: 2 } }), 400, '200', 'invalid_chaos');
  });

  // --- the journal, worlds, state, reset ---

  await check('requests, resetRequests', async () => {
    assert.ok((await ctl.requests()).some((r) => r.path.endsWith(`/nodes/${s.node}`)));
    await ctl.resetRequests();
    assert.deepEqual(await ctl.requests(), []);
  });

  await check('loadWorld -> names to ids; a bad world -> 400 invalid_world', async () => {
    const ids = await ctl.loadWorld({ users: [{ name: 'wendy', legal_names: ['Wendy World'], nodes: [{ name: 'w', nickname: 'W', balance: '12.00' }] }] });
    assert.equal((await ctl.node(ids.nodes.w)).balance_cents, 1200);
    assert.deepEqual((await ctl.user(ids.users.wendy)).legal_names, ['Wendy World']);
    await refused(() => ctl.loadWorld({ users: [{ nodes: 'many' }] }), 400, '200', 'invalid_world');
  });

  await check('state, restore (an object or text); a bad document -> 400 invalid_state, nothing changed', async () => {
    const doc = await ctl.state();
    const users = (await ctl.users({ limit: 1000 })).length;
    await ctl.addUser({ legal_names: ['Gone After Restore'] });
    await ctl.restore(doc);
    assert.equal((await ctl.users({ limit: 1000 })).length, users);
    await ctl.restore(JSON.stringify(doc));
    await refused(() => ctl.restore({ version: 'nope' }), 400, '200', 'invalid_state');
    assert.equal((await ctl.users({ limit: 1000 })).length, users);
  });

  await check('restore(doc, {copy: true}): another platform\'s document (PUT .../state?copy=true); without copy -> 400 invalid_state', async () => {
    const doc = await ctl.state();
    const users = (await ctl.users({ limit: 1000 })).length;
    const made = await ctl.call('POST', 'platforms', { client_id: 'compat_copy' });
    const other = new Control(made.platform.control_url);
    await refused(() => other.restore(doc), 400, '200', 'invalid_state');
    assert.equal((await other.users({ limit: 1000 })).length, 0);
    await other.restore(doc, { copy: true });
    assert.equal((await other.users({ limit: 1000 })).length, users);
    await ctl.call('DELETE', 'platforms/compat_copy');
  });

  await check('docs/control-api.md\'s Node example runs as written', async () => {
    // The js block of its "Clients in other languages", against this server.
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'control-api.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Clients in other languages'));
    const match = /```js\n([\s\S]*?)```/.exec(section);
    assert.ok(match && match[1].includes('http://127.0.0.1:8080/v3.1'), 'the block and its base URL');
    const code = match[1].replace('http://127.0.0.1:8080/v3.1', `${ctl.origin}/v3.1`);
    const AsyncFunction = (async () => {}).constructor;
    const local = (name) => require(name === 'synapsefake' ? path.join(__dirname, '..', '..', 'clients', 'node') : name);
    await new AsyncFunction('require', code)(local);
  });

  await check('reset: nothing left', async () => {
    await ctl.reset();
    assert.deepEqual(await ctl.users(), []);
    await refused(() => ctl.node(s.node), 404, '404', 'unable_to_locate_node');
  });

  await check('every method of Control was called above', async () => {
    const methods = Object.getOwnPropertyNames(Control.prototype).filter((m) => m !== 'constructor');
    assert.deepEqual(methods.filter((m) => !called.has(m)), []);
  });

  hooks.close();
}

setTimeout(() => {
  console.log('FAIL - the run took more than 60 s');
  failed++;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(1);
}, 60_000).unref();

main().then(() => {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}, (err) => {
  console.log(`FAIL - unexpected error: ${(err && err.stack) || err}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
