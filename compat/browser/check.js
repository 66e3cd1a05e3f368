// Opens the standalone fake's dashboard in headless Chromium and checks it
// as a user would, and that pages on other origins can neither drive nor
// read the control API. Usage: node check.js BASE (BASE is the API's base URL,
// http://127.0.0.1:PORT/v3.1). Loads a world through the control API, then
// prints one line per check and "N passed, M failed". With
// SCREENSHOTS=DIR it also saves the pages, each with a detail open, at
// 1280x900 and 390x844, in light and dark mode, and prints each file's path
// with what it shows.
'use strict';
const http = require('node:http');
const crypto = require('node:crypto');
const { chromium } = require('playwright-core');

const base = process.argv[2];
if (!base) {
  console.error('usage: node check.js http://127.0.0.1:PORT/v3.1');
  process.exit(2);
}
const root = base.replace(/\/v3\.1$/, '');
const clientID = process.env.SYNAPSEFAKE_CLIENT_ID;
const clientSecret = process.env.SYNAPSEFAKE_CLIENT_SECRET;
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shots = process.env.SCREENSHOTS || '';
const fingerprint = 'fp-browser-check';
const timeout = 10000;

async function call(method, url, body, headers) {
  const res = await fetch(url, {
    method,
    headers: Object.assign({ 'Content-Type': 'application/json' }, headers || {}),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}
const control = (method, p, body) => call(method, root + '/_fake/' + p, body);

// A webhook receiver that checks each delivery's signatures as an app would.
function receiver() {
  const got = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      let id = '';
      try { id = JSON.parse(body)._id.$oid; } catch (e) { /* not a webhook */ }
      const mac = (alg) => crypto.createHmac(alg, clientSecret).update(id + '+' + clientID).digest('hex');
      got.push({ id, valid: req.headers['x-synapse-signature'] === mac('sha1') &&
        req.headers['x-synapse-signature-sha256'] === mac('sha256') });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, got, url: `http://127.0.0.1:${server.address().port}/hooks` })));
}

// The world the check starts from, loaded through POST /_fake/world as a
// developer would load one with -world.
const world = {
  users: [{
    name: 'ada', email: 'ada@example.com', legal_names: ['Ada Lovelace'], fingerprint,
    oauth: { fingerprint },
    nodes: [
      { name: 'checking', nickname: 'Everyday checking', balance: '1000.00',
        subnets: [{ name: 'card', nickname: 'Debit card', account_class: 'CARD', status: 'ACTIVE' }] },
      { name: 'savings', nickname: 'Rainy-day savings', balance: '0' },
      { name: 'bank', nickname: 'Outside bank', type: 'ACH-US', account_num: '123456789', routing_num: '051000017' },
    ],
  }],
  transactions: [
    { name: 'internal', from: 'checking', to: 'savings', amount: 25, note: 'browser check' },
    { name: 'ach', from: 'checking', to: 'bank', amount: 10, note: 'browser check' },
  ],
};

// deadURL is a receiver nothing listens at: its deliveries fail with
// "connect: connection refused", which the webhook log records as 408.
const deadURL = 'http://127.0.0.1:1/dead-hooks';

async function seed(hookURL) {
  await control('POST', 'subscriptions', { url: hookURL, scopes: ['USERS|POST', 'NODES|POST', 'TRANS|POST', 'TRAN|PATCH'] });
  await control('POST', 'subscriptions', { url: deadURL, scopes: ['USERS|POST'] });
  const ids = (await control('POST', 'world', world)).world;
  const obj = (id) => ({ _id: id });
  const w = { user: obj(ids.users.ada), checking: obj(ids.nodes.checking), savings: obj(ids.nodes.savings),
    bank: obj(ids.nodes.bank), internal: obj(ids.transactions.internal), ach: obj(ids.transactions.ach) };
  w.card = obj(ids.subnets.card);
  w.key = ids.oauth_keys.ada;
  return w;
}

// A page on another origin (a second loopback port), as any site open in
// the developer's browser: it tries what issue 18 found it could do, a
// no-cors text/plain POST that empties the store, one that subscribes an
// outside URL, and reads of the whole state. window.attempts holds what
// its script got.
function foreignSite() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>another site</title><script>
      const root = ${JSON.stringify(root)};
      const text = { 'Content-Type': 'text/plain' };
      window.attempts = Promise.allSettled([
        fetch(root + '/_fake/reset', { method: 'POST', mode: 'no-cors', headers: text, body: '{}' }),
        fetch(root + '/_fake/subscriptions', { method: 'POST', mode: 'no-cors', headers: text,
          body: JSON.stringify({ url: 'http://attacker.example/hooks' }) }),
        fetch(root + '/_fake/state').then((r) => r.text()),
        fetch(root + '/_fake/state', { mode: 'no-cors' }).then((r) => r.text()),
      ]).then((all) => all.map((a) => (a.status === 'fulfilled' ? { read: typeof a.value === 'string' ? a.value : '' } : { error: String(a.reason) })));
    </script>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })));
}

// lastLogID is webhook_meta.log_id of the newest captured webhook of the
// object, read through the control API.
async function lastLogID(objectID) {
  const hooks = (await control('GET', 'webhooks?limit=1000')).webhooks.filter((h) => h.object_id === objectID);
  return hooks.length ? hooks[hooks.length - 1].payload.webhook_meta.log_id : '';
}

// counts reads what the foreign page must not change, through the API.
async function counts() {
  const h = { 'X-SP-GATEWAY': `${clientID}|${clientSecret}` };
  const users = await call('GET', base + '/users', undefined, h);
  const subs = await call('GET', base + '/subscriptions', undefined, h);
  return { users: users.users_count, subscriptions: subs.subscriptions_count };
}

async function main() {
  const hooks = await receiver();
  const w = await seed(hooks.url);
  const foreign = await foreignSite();
  const fakePort = new URL(root).port;
  // rebind.evil.example stands for a name an attacker's DNS turned to the
  // fake's address (DNS rebinding): the browser sends it as Host.
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
    args: ['--host-resolver-rules=MAP rebind.evil.example 127.0.0.1'] });
  const results = [];
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // check runs one check. The pages it opened in ctx and left open (a
  // failed check does) are closed after it: each holds an event stream,
  // and Chromium opens at most six connections to the fake.
  async function check(name, fn) {
    const before = new Set(ctx.pages());
    try {
      await fn();
      results.push(true);
      console.log(`ok   ${name}`);
    } catch (err) {
      results.push(false);
      console.log(`FAIL ${name}: ${String(err.message || err).split('\n')[0]}`);
    }
    await Promise.all(ctx.pages().filter((p) => !before.has(p)).map((p) => p.close()));
  }
  ctx.setDefaultTimeout(timeout);
  const overview = await ctx.newPage();
  const txPage = await ctx.newPage();
  const node = (p, id) => p.locator(`.list #node-${id}`);
  const pane = (p) => p.locator('#pane');
  // paneOf waits until the detail pane shows the object with the id.
  const paneOf = async (p, id) => { await p.locator(`#pane[data-open="${id}"]`).waitFor(); return pane(p); };

  await check('the user and node are shown with their balance', async () => {
    await overview.goto(root + '/');
    await overview.locator(`#user-${w.user._id} .name`).getByText('Ada Lovelace').waitFor();
    await node(overview, w.checking._id).getByText('Everyday checking').waitFor();
    const current = await node(overview, w.checking._id).locator('.balance').textContent();
    const available = await node(overview, w.checking._id).locator('.available').textContent();
    if (current !== '1000.00' || available !== '965.00') throw new Error(`balances ${current} / ${available}, want 1000.00 / 965.00`);
  });

  await check('an external ACH-US node shows "external", not a balance', async () => {
    const row = node(overview, w.bank._id);
    await row.locator('.external').getByText('external', { exact: true }).waitFor();
    if (await row.locator('.balance, .available').count() !== 0) throw new Error('the external node shows a balance');
  });

  await check('a click on a row opens its detail beside the list, without a reload', async () => {
    await overview.evaluate(() => { window.notReloaded = true; });
    await node(overview, w.checking._id).locator('.nick').click();
    const p = await paneOf(overview, w.checking._id);
    await p.locator('h2').getByText('Everyday checking').waitFor();
    await p.locator('.balances .balance').getByText('1000.00', { exact: true }).waitFor();
    await p.locator(`#subnet-${w.card._id}`).waitFor(); // its card
    await p.locator(`tr[data-open="${w.internal._id}"]`).waitFor(); // its transactions
    await p.locator('details.json summary').click();
    const json = JSON.parse(await p.locator('details.json pre').textContent());
    if (json._id !== w.checking._id || json.info.nickname !== 'Everyday checking') throw new Error('JSON ' + JSON.stringify(json).slice(0, 120));
    if (!(await node(overview, w.checking._id).evaluate((tr) => tr.classList.contains('sel')))) throw new Error('the row is not marked as open');
    if (new URL(overview.url()).searchParams.get('open') !== w.checking._id) throw new Error('the URL does not name the open row: ' + overview.url());
    if (!(await overview.evaluate(() => window.notReloaded))) throw new Error('the page was reloaded');
  });

  await check('settle on a CREATED transaction shows SETTLED and moves the balance, without a reload', async () => {
    // Marks on both pages: a reload would lose them.
    await txPage.goto(root + '/_fake/ui/transactions');
    await txPage.evaluate(() => { window.notReloaded = true; });
    const row = txPage.locator(`#tx-${w.internal._id}`);
    await row.locator('.status').first().getByText('CREATED', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Settle' }).click();
    await txPage.locator(`#tx-${w.internal._id}[data-status="SETTLED"]`).waitFor();
    await txPage.locator(`#tx-${w.internal._id} .st .status`).getByText('SETTLED', { exact: true }).waitFor();
    await node(overview, w.savings._id).locator('.balance').getByText('25.00', { exact: true }).waitFor();
    await node(overview, w.checking._id).locator('.balance').getByText('975.00', { exact: true }).waitFor();
    await pane(overview).locator('.balances .balance').getByText('975.00', { exact: true }).waitFor(); // the open detail too
    if (!(await txPage.evaluate(() => window.notReloaded)) || !(await overview.evaluate(() => window.notReloaded))) {
      throw new Error('a page was reloaded');
    }
  });

  await check('a pending transfer shows its next step, when it falls due in ET and the Advance that reaches it', async () => {
    const row = txPage.locator(`#tx-${w.ach._id}`);
    await row.locator('.next').getByText('next PROCESSING-DEBIT · Tue 10:01 EDT', { exact: true }).waitFor();
    await row.locator('.parties').click();
    const p = await paneOf(txPage, w.ach._id);
    const first = p.locator('.pending li').first();
    await first.getByText('reaches PROCESSING-DEBIT', { exact: true }).waitFor();
    const text = (await first.textContent()).replace(/\s+/g, ' ');
    if (!text.includes('at 2026-04-14T14:01:00Z (Tue 10:01 EDT) (call Advance(1m))')) throw new Error('first pending step: ' + text);
    if (await first.getByRole('button', { name: 'Advance' }).getAttribute('data-body') !== '{"duration":"1m0s"}') throw new Error('no Advance(1m) button');
    await p.locator('.pending li', { hasText: 'reaches SETTLED' }).getByText('(Wed 10:00 EDT)', { exact: false }).waitFor();
    await txPage.locator('[data-close]').click();
    await txPage.locator('#pane').waitFor({ state: 'detached' });
  });

  await check('advancing the clock by a day from the page moves an ACH transfer', async () => {
    const row = `#tx-${w.ach._id}`;
    await txPage.locator(`${row}[data-status="CREATED"]`).waitFor();
    await txPage.getByRole('button', { name: '+1 day' }).click();
    await txPage.locator(`${row}:not([data-status="CREATED"])`).waitFor();
    const status = await txPage.locator(row).getAttribute('data-status');
    if (!['PROCESSING-DEBIT', 'PROCESSING-CREDIT', 'SETTLED'].includes(status)) throw new Error(`status ${status}`);
    if (!(await txPage.evaluate(() => window.notReloaded))) throw new Error('the page was reloaded');
  });

  await check('search by a transaction id opens it on the transactions page with its timeline', async () => {
    const page = await ctx.newPage();
    await page.goto(root + '/_fake/ui/webhooks');
    await page.getByRole('searchbox', { name: 'find by id' }).fill(w.internal._id);
    await page.keyboard.press('Enter');
    const p = await paneOf(page, w.internal._id);
    if (!page.url().includes('/_fake/ui/transactions?open=')) throw new Error('landed on ' + page.url());
    await p.locator('.kind').getByText('transaction', { exact: true }).waitFor();
    await p.locator('.timeline li', { hasText: 'SETTLED' }).waitFor();
    await p.locator('table.hooks tr[data-open]').first().waitFor(); // its webhooks
    await page.locator(`.list #tx-${w.internal._id}.sel`).waitFor();
    await page.close();
  });

  await check('search by a node id, a subnet id and a webhook log_id opens each; an unknown id says so', async () => {
    const page = await ctx.newPage();
    const logID = await lastLogID(w.internal._id);
    const cases = [[w.savings._id, 'node', '/_fake/ui/?open='], [w.card._id, 'subnet', '/_fake/ui/?open='],
      [logID, 'webhook', '/_fake/ui/webhooks?open=']];
    for (const [id, kind, where] of cases) {
      if (!id) throw new Error(`no id for ${kind}`);
      await page.goto(root + '/_fake/ui/');
      await page.getByRole('searchbox', { name: 'find by id' }).fill(id);
      await page.keyboard.press('Enter');
      const p = await paneOf(page, id);
      await p.locator('.kind').getByText(kind, { exact: true }).waitFor();
      if (!page.url().includes(where)) throw new Error(`${kind}: landed on ${page.url()}`);
    }
    const res = await page.goto(root + '/_fake/ui/find?id=000000000000000000000000');
    await pane(page).getByText('No user, node, subnet, transaction, subscription or webhook log_id has the id').waitFor();
    if (res.status() !== 404) throw new Error(`unknown id: ${res.status()}, want 404`);
    await page.close();
  });

  await check('a user and a node created from the page, and the node funded from its detail', async () => {
    const page = await ctx.newPage();
    await page.goto(root + '/_fake/ui/');
    await page.evaluate(() => { window.notReloaded = true; });
    await page.locator('#tool-user summary').click();
    await page.getByLabel('Legal name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    const userPane = pane(page);
    await userPane.locator('h2').getByText('Grace Hopper').waitFor();
    const userID = await userPane.getAttribute('data-open');
    await page.locator(`.list #user-${userID}`).waitFor();
    await userPane.getByLabel('Nickname').fill('Travel fund');
    await userPane.getByRole('button', { name: 'Create node' }).click();
    await userPane.locator('.kind').getByText('node', { exact: true }).waitFor();
    await userPane.locator('h2').getByText('Travel fund').waitFor();
    const nodeID = await userPane.getAttribute('data-open');
    await userPane.getByLabel('Amount').fill('250.00');
    await userPane.getByRole('button', { name: 'Fund' }).click();
    await userPane.locator('.balances .balance').getByText('250.00', { exact: true }).waitFor();
    await node(page, nodeID).locator('.balance').getByText('250.00', { exact: true }).waitFor();
    const got = (await control('GET', `nodes/${nodeID}`)).node;
    if (got.user_id !== userID || got.balance_cents !== 25000 || got.nickname !== 'Travel fund') throw new Error('node ' + JSON.stringify(got));
    if (!(await page.evaluate(() => window.notReloaded))) throw new Error('the page was reloaded');
    await page.close();
  });

  await check('a declined swipe from the page shows as a decline with its IR meaning', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/?open=${w.card._id}`);
    const p = await paneOf(page, w.card._id);
    await p.getByLabel('Force code').fill('IR51');
    await p.getByRole('button', { name: 'Swipe' }).click();
    await p.locator('.verdict.bad').getByText('declined: IR51').waitFor();
    const txs = await control('GET', `nodes/${w.checking._id}/transactions?limit=1`);
    const id = txs.transactions[0]._id;
    await page.goto(`${root}/_fake/ui/transactions`);
    const row = page.locator(`#tx-${id}`);
    await row.locator('.status').getByText('DECLINED', { exact: true }).waitFor();
    await row.locator('.code').getByText('IR51 · insufficient funds').waitFor();
    await row.click();
    await (await paneOf(page, id)).locator('.decline').getByText('Declined').waitFor();
    await page.close();
  });

  await check("a webhook's payload is shown and its signature marked valid", async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/webhooks?object=${w.internal._id}`);
    const row = page.locator('.list tr[data-open]', { has: page.locator('.status', { hasText: 'SETTLED' }) }).first();
    await row.locator('.fn').click();
    const p = await paneOf(page, await row.getAttribute('data-open'));
    const payload = JSON.parse(await p.locator('details.json pre').textContent());
    if (payload._id.$oid !== w.internal._id || payload.recent_status.status !== 'SETTLED') {
      throw new Error('payload ' + JSON.stringify(payload).slice(0, 120));
    }
    await p.locator('.sig.valid').getByText('Signature valid').waitFor();
    await p.locator('.attempts li.ok').first().waitFor();
    const delivered = hooks.got.filter((g) => g.id === w.internal._id);
    if (delivered.length === 0 || !delivered.every((g) => g.valid)) throw new Error('the receiver did not get validly signed deliveries');
    await page.close();
  });

  await check('the subscriptions page lists the subscription with its url, scopes and state', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/subscriptions`);
    const row = page.locator('.list tr[data-open]', { hasText: hooks.url });
    await row.locator('.tag', { hasText: 'TRAN|PATCH' }).waitFor();
    await row.locator('.status').getByText('active', { exact: true }).waitFor();
    await row.locator('.rate .ok').getByText(/^\d+ of \d+ \(100%\)$/).waitFor();
    await row.locator('.last-error').getByText('none', { exact: true }).waitFor();
    await page.close();
  });

  await check('a delivery to a dead receiver (connection refused, logged as 408) shows as failed, not delivered', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/webhooks?object=${w.user._id}`);
    const row = page.locator('.list tr[data-open]', { has: page.locator('.fn', { hasText: 'USERS|POST' }) });
    await row.locator('.dl .ok').getByText('✓1', { exact: true }).waitFor(); // the live receiver's
    await row.locator('.dl .bad').getByText('✗1 failed', { exact: true }).waitFor(); // the dead one's
    await row.locator('.fn').click();
    const p = await paneOf(page, await row.getAttribute('data-open'));
    const dead = p.locator('.delivery', { hasText: deadURL });
    const failed = dead.locator('.attempts li.bad');
    await failed.locator('.verdict').getByText('failed: unreachable or timed out (recorded as 408)', { exact: true }).waitFor();
    await failed.getByText(/connect: connection refused/).waitFor();
    if (await dead.locator('.attempts li.ok').count() !== 0) throw new Error('the failed attempt is marked ok');
    const color = (sel) => p.locator(sel).first().evaluate((el) => getComputedStyle(el).color);
    const [bad, ok] = [await color(`.delivery:has-text("${deadURL}") .attempts li.bad b`), await color(`.delivery:has-text("${hooks.url}") .attempts li.ok b`)];
    if (bad === ok) throw new Error(`the failed 408 is shown in the delivered color ${ok}`);
    await page.close();
  });

  await check("a dead receiver's subscription shows failing, its success rate and its last error", async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/subscriptions`);
    const row = page.locator('.list tr[data-open]', { hasText: deadURL });
    await row.locator('.status.s-failing').getByText('failing', { exact: true }).waitFor();
    // Ada's USERS|POST, and Grace Hopper's (made from the page after
    // the clock moved a day): the last error is hers.
    await row.locator('.rate .bad').getByText('0 of 2 (0%)', { exact: true }).waitFor();
    await row.locator('.rate').getByText('of its last 2 deliveries').waitFor();
    const last = (await row.locator('.last-error').textContent()).replace(/\s+/g, ' ');
    if (!/^408 failed: unreachable or timed out \(recorded as 408\) 2026-04-15T14:00:00Z \(Wed 10:00 EDT\) .*connect: connection refused/.test(last.trim())) {
      throw new Error('last error ' + JSON.stringify(last));
    }
    const green = await page.locator('.list tr[data-open]', { hasText: hooks.url }).locator('.rate .ok').evaluate((el) => getComputedStyle(el).color);
    for (const el of await row.locator('.status').all()) {
      if (await el.evaluate((e) => getComputedStyle(e).color) === green) throw new Error(`"${await el.textContent()}" is shown green`);
    }
    await page.close();
  });

  // After the checks that count the dead receiver's USERS|POST deliveries:
  // this user's is one more.
  await check("a user's documents reviewed from its detail: statuses, permission and its history follow, without a reload", async () => {
    const made = (await control('POST', 'users', { legal_names: ['Kay Reviewed'], documents: [
      { kind: 'virtual', type: 'SSN', value: '2222', status: 'REVIEWING' },
      { kind: 'physical', type: 'GOVT_ID', value: 'data:image/gif;base64,SUQs', status: 'REVIEWING' },
    ] })).user;
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/?open=${made._id}`);
    await page.evaluate(() => { window.notReloaded = true; });
    const p = await paneOf(page, made._id);
    const status = (type, want) => p.locator(`tr[data-type="${type}"] .status`).getByText(want, { exact: true }).waitFor();
    const permission = (want) => p.locator('.meta .permission').getByText(want, { exact: true }).waitFor();
    await status('SSN', 'SUBMITTED|REVIEWING');
    await status('GOVT_ID', 'SUBMITTED|REVIEWING');
    await permission('UNVERIFIED');
    await p.getByRole('button', { name: 'Mark SSN valid', exact: true }).click();
    await page.locator('#flash').getByText('SSN marked valid · permission RECEIVE', { exact: true }).waitFor();
    await status('SSN', 'SUBMITTED|VALID');
    await permission('RECEIVE');
    await status('GOVT_ID', 'SUBMITTED|REVIEWING');
    if (await p.getByRole('button', { name: 'Mark SSN valid', exact: true }).count() !== 0) throw new Error('a VALID SSN still offers "Mark SSN valid"');
    await p.getByRole('button', { name: 'Mark GOVT_ID valid', exact: true }).click();
    await status('GOVT_ID', 'SUBMITTED|VALID');
    await permission('SEND-AND-RECEIVE');
    const steps = await p.locator('ol.permissions li').evaluateAll((lis) => lis.map((li) => li.querySelector('.permission').textContent + ' by ' + li.querySelector('.by').textContent));
    const want = ['UNVERIFIED by created', 'RECEIVE by documents', 'SEND-AND-RECEIVE by documents'];
    if (JSON.stringify(steps) !== JSON.stringify(want)) throw new Error('permission history ' + JSON.stringify(steps));
    const colors = await p.locator('tr[data-type] .status').evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
    const fg = await p.evaluate((el) => getComputedStyle(el).color);
    if (colors.some((c) => c === fg)) throw new Error('a VALID tag is shown in the text color ' + fg);
    const wide = await p.evaluate((el) => el.scrollWidth > el.clientWidth);
    if (wide) throw new Error('the pane scrolls sideways');
    if (!(await page.evaluate(() => window.notReloaded))) throw new Error('the page was reloaded');
    await page.close();
  });

  await check('a world pasted into the page is loaded', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/`);
    await page.locator('#tool-world summary').click();
    await page.getByLabel('world JSON').fill(JSON.stringify({ users: [{ name: 'lin', legal_names: ['Lin Pasted'], nodes: [{ name: 'n', nickname: 'Pasted node', balance: '5.00' }] }] }));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('#flash').getByText('World loaded: 1 users, 1 nodes, 0 transactions').waitFor();
    await page.locator('.list .name').getByText('Lin Pasted').waitFor();
    await page.close();
  });

  await check('the requests page shows each answer beside its request', async () => {
    await call('GET', base + '/users/000000000000000000000000', undefined, { 'X-SP-GATEWAY': `${clientID}|${clientSecret}` }).catch(() => {});
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/requests?status=4xx`);
    const row = page.locator('.req summary', { hasText: '/users/{user_id}' }).first();
    await row.locator('.http').getByText('404 / 404').waitFor();
    const reason = await row.locator('.reason').textContent();
    if (!reason || !/no user 0{24} in this fake/.test(reason)) throw new Error('reason ' + JSON.stringify(reason));
    await page.close();
  });

  await check("a request's detail shows the answer's body, redacted as the request is", async () => {
    const h = { 'X-SP-GATEWAY': `${clientID}|${clientSecret}`, 'X-SP-USER': `|${fingerprint}`, 'X-SP-USER-IP': '127.0.0.1' };
    const user = await call('GET', `${base}/users/${w.user._id}`, undefined, h);
    const minted = await call('POST', `${base}/oauth/${w.user._id}`, { refresh_token: user.refresh_token }, h);
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/requests?route=/oauth`);
    const req = page.locator('details.req', { has: page.locator('.http', { hasText: '200' }) }).first();
    await req.locator('summary').click();
    const answer = JSON.parse(await req.locator('pre.answer').textContent());
    if (answer.user_id !== w.user._id || answer.oauth_key !== '***' || answer.refresh_token !== '***') {
      throw new Error('answer ' + JSON.stringify(answer).slice(0, 200));
    }
    const html = await page.content();
    if (html.includes(minted.oauth_key) || html.includes(minted.refresh_token)) throw new Error('the page shows a secret of the answer');
    await page.close();
  });

  await check('the user page fits 1400 px without sideways scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(`${root}/_fake/ui/?open=${w.user._id}`);
      await paneOf(page, w.user._id);
      const wide = await page.evaluate(() => [document.scrollingElement, document.querySelector('main .list'), document.getElementById('pane')]
        .filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${el.id || el.className || el.tagName} ${el.scrollWidth} > ${el.clientWidth}`));
      if (wide.length > 0) throw new Error('scrolls sideways: ' + wide.join(', '));
    } finally {
      await page.close();
    }
  });

  await check('the OAuth page keeps the key that expired, marked expired', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/oauth`);
    const row = page.locator(`#oauth-${w.user._id} tr[data-key="${w.key}"]`);
    await row.locator('.status').getByText('expired', { exact: true }).waitFor();
    if (!(await row.evaluate((tr) => tr.classList.contains('expired')))) throw new Error('the row is not marked expired');
    await page.close();
  });

  for (const [name, origin] of [['another port', `http://127.0.0.1:${foreign.port}`], ['another site', `http://localhost:${foreign.port}`]]) {
    await check(`a page on ${name} can neither change the store nor read it`, async () => {
      const before = await counts();
      const page = await ctx.newPage();
      await page.goto(origin + '/');
      const attempts = await page.evaluate(() => window.attempts);
      await page.close();
      const after = await counts();
      if (before.users === 0 || JSON.stringify(after) !== JSON.stringify(before)) {
        throw new Error(`store ${JSON.stringify(before)} became ${JSON.stringify(after)}`);
      }
      const leaked = attempts.filter((a) => /refresh_token|synapsefake-state/.test(a.read || ''));
      if (leaked.length > 0 || !attempts[2].error) throw new Error('the page read the state: ' + JSON.stringify(attempts).slice(0, 200));
    });
  }

  await check('a page behind DNS rebinding reads nothing and changes nothing', async () => {
    const before = await counts();
    const page = await ctx.newPage();
    const res = await page.goto(`http://rebind.evil.example:${fakePort}/_fake/state`);
    const body = await res.text();
    // Its own script, same-origin now that the name points at the fake.
    const got = await page.evaluate(async () => {
      const state = await fetch('/_fake/state');
      const reset = await fetch('/_fake/reset', { method: 'POST', body: '{}' });
      return { state: state.status, stateBody: await state.text(), reset: reset.status };
    });
    await page.close();
    if (res.status() !== 403 || /refresh_token/.test(body) || !/"foreign_host"/.test(body)) {
      throw new Error(`GET /_fake/state: ${res.status()} ${body.slice(0, 120)}`);
    }
    if (got.state !== 403 || got.reset !== 403 || /refresh_token/.test(got.stateBody)) throw new Error('from the page: ' + JSON.stringify(got).slice(0, 200));
    const after = await counts();
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`store ${JSON.stringify(before)} became ${JSON.stringify(after)}`);
  });

  await check("the API journal holds only the check's own API calls: no page, asset, event stream or favicon", async () => {
    const journal = (await control('GET', 'requests')).requests;
    const others = journal.filter((r) => !r.path.startsWith('/v3.1/'));
    if (journal.length === 0 || others.length > 0) throw new Error(`${journal.length} journaled, not the API's: ${JSON.stringify(others.map((r) => r.method + ' ' + r.path)).slice(0, 200)}`);
  });

  if (shots) {
    const fs = require('node:fs');
    fs.mkdirSync(shots, { recursive: true });
    const last = (await control('GET', `nodes/${w.checking._id}/transactions?limit=1`)).transactions[0]._id;
    const logID = await lastLogID(w.internal._id);
    const pages = [
      ['overview', `/_fake/ui/?open=${w.checking._id}`, 'users and nodes, the checking node open: balances, fund form, card, its transactions and webhooks'],
      ['transactions', `/_fake/ui/transactions?open=${last}`, 'transactions, the declined swipe open: DECLINED IR51 with its meaning, timeline'],
      ['webhooks', `/_fake/ui/webhooks?open=${logID}`, 'captured webhooks, one open: signature, attempts, payload'],
      ['subscriptions', '/_fake/ui/subscriptions', 'subscriptions: url, scopes, state, success rate and last error (the dead receiver failing)'],
      ['requests', '/_fake/ui/requests', 'the journal: each request with its status, error_code and reason'],
      ['oauth', '/_fake/ui/oauth', 'users\' oauth keys, the expired one marked'],
    ];
    for (const [scheme, width, height] of [['light', 1280, 900], ['dark', 1280, 900], ['light', 390, 844], ['dark', 390, 844]]) {
      const p = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
      for (const [name, path, what] of pages) {
        await p.goto(root + path);
        const file = `${shots}/${name}-${width}x${height}-${scheme}.png`;
        await p.screenshot({ path: file });
        console.log(`screenshot ${file}: ${what} (${width}x${height}, ${scheme})`);
      }
      await p.close();
    }
  }

  await check('times show Eastern time beside UTC: the clock, a list, a detail and the clock button', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/transactions?open=${w.ach._id}`);
    const now = (await page.locator('#clock .now').textContent()).trim();
    if (now !== '2026-04-15T14:00:00Z (Wed 10:00 EDT)') throw new Error('clock ' + JSON.stringify(now));
    const created = (await page.locator(`.list #tx-${w.ach._id} td.when`).textContent()).trim();
    if (created !== '04-14 14:00:00 Tue 10:00 EDT') throw new Error('created ' + JSON.stringify(created));
    await (await paneOf(page, w.ach._id)).locator('.timeline li', { hasText: 'CREATED' }).getByText('2026-04-14T14:00:00Z (Tue 10:00 EDT)').waitFor();
    await page.getByRole('button', { name: '+1 h' }).click();
    await page.locator('#flash').getByText('Clock: 2026-04-15T15:00:00Z (Wed 11:00 EDT)', { exact: true }).waitFor();
    await page.locator('#clock .now').getByText('2026-04-15T15:00:00Z (Wed 11:00 EDT)', { exact: true }).waitFor();
  });

  await check("a made platform's dashboard shows its own users; its clock button moves its clock only; the switcher leads back", async () => {
    const made = await control('POST', 'platforms', { client_id: 'browser_platform', name: 'Browser platform', clock: 'manual', start: '2026-05-01T12:00:00Z' });
    if (!made.platform) throw new Error('POST /_fake/platforms: ' + JSON.stringify(made));
    const pc = (method, p, body) => call(method, made.platform.control_url + '/' + p, body);
    await pc('POST', 'users', { legal_names: ['Pat Platform'], fingerprint: 'fp' });
    const defaultBefore = (await control('GET', 'clock')).now;
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/`);
    await page.locator('details.platforms summary').click();
    await page.locator('details.platforms').getByRole('link', { name: 'Browser platform' }).click();
    await page.waitForURL(`${root}/_fake/platforms/browser_platform/ui/`);
    await page.locator('.list').getByText('Pat Platform').waitFor();
    if (await page.locator('.list').getByText('Ada Lovelace').count()) throw new Error("the default platform's user is shown");
    await page.getByRole('button', { name: '+1 day' }).click();
    await page.locator('#clock .now').getByText('2026-05-02T12:00:00Z', { exact: false }).waitFor();
    const defaultAfter = (await control('GET', 'clock')).now;
    if (defaultAfter !== defaultBefore) throw new Error(`the default's clock moved: ${defaultBefore} -> ${defaultAfter}`);
    await page.locator('details.platforms summary').click();
    await page.locator('details.platforms li a').first().click(); // the default is listed first
    await page.waitForURL(`${root}/_fake/ui/`);
    await control('DELETE', 'platforms/browser_platform');
    await page.close();
  });

  await check('reset asks first: dismissed it changes nothing, accepted it empties the store', async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/`);
    const before = await counts();
    page.once('dialog', (d) => d.dismiss());
    await page.getByRole('button', { name: 'Reset…' }).click();
    const kept = await counts();
    if (before.users === 0 || JSON.stringify(kept) !== JSON.stringify(before)) throw new Error(`dismissed: ${JSON.stringify(before)} became ${JSON.stringify(kept)}`);
    let asked = '';
    page.once('dialog', (d) => { asked = d.message(); d.accept(); });
    await page.getByRole('button', { name: 'Reset…' }).click();
    await page.locator('.list .empty').getByText('No users yet').waitFor();
    const after = await counts();
    if (after.users !== 0 || !/Reset the fake/.test(asked)) throw new Error(`after reset ${JSON.stringify(after)}, asked ${JSON.stringify(asked)}`);
    await page.close();
  });

  await browser.close();
  hooks.server.close();
  foreign.server.close();
  const passed = results.filter(Boolean).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  process.exit(passed === results.length ? 0 : 1);
}

main().catch((err) => {
  console.error('compat/browser:', err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
