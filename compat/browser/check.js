// Opens the standalone fake's dashboard in headless Chromium and checks it
// as a user would, and that pages on other origins can neither drive nor
// read the control API. Usage: node check.js BASE (BASE is the API's base URL,
// http://127.0.0.1:PORT/v3.1). Loads a world through the control API, then
// prints one line per check and "N passed, M failed". With
// SCREENSHOTS=DIR it also saves every page at phone and desktop width, in
// light and dark mode.
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

async function seed(hookURL) {
  await control('POST', 'subscriptions', { url: hookURL, scopes: ['USERS|POST', 'NODES|POST', 'TRANS|POST', 'TRAN|PATCH'] });
  const ids = (await control('POST', 'world', world)).world;
  const obj = (id) => ({ _id: id });
  return { user: obj(ids.users.ada), checking: obj(ids.nodes.checking), savings: obj(ids.nodes.savings),
    bank: obj(ids.nodes.bank), internal: obj(ids.transactions.internal), ach: obj(ids.transactions.ach) };
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
  async function check(name, fn) {
    try {
      await fn();
      results.push(true);
      console.log(`ok   ${name}`);
    } catch (err) {
      results.push(false);
      console.log(`FAIL ${name}: ${String(err.message || err).split('\n')[0]}`);
    }
  }
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  ctx.setDefaultTimeout(timeout);
  const overview = await ctx.newPage();
  const txPage = await ctx.newPage();
  const node = (p, id) => p.locator(`#node-${id}`);

  await check('the user and node are shown with their balance', async () => {
    await overview.goto(root + '/');
    await overview.locator(`#user-${w.user._id} h2`).getByText('Ada Lovelace').waitFor();
    await node(overview, w.checking._id).getByText('Everyday checking').waitFor();
    const current = await node(overview, w.checking._id).locator('.balance').textContent();
    const available = await node(overview, w.checking._id).locator('.available').textContent();
    if (current !== '1000.00' || available !== '965.00') throw new Error(`balances ${current} / ${available}, want 1000.00 / 965.00`);
  });

  await check('settle on a CREATED transaction shows SETTLED and moves the balance, without a reload', async () => {
    // Marks on both pages: a reload would lose them.
    await overview.evaluate(() => { window.notReloaded = true; });
    await txPage.goto(root + '/_fake/ui/transactions');
    await txPage.evaluate(() => { window.notReloaded = true; });
    const row = txPage.locator(`#tx-${w.internal._id}`);
    await row.locator('.status').first().getByText('CREATED', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Settle' }).click();
    await txPage.locator(`#tx-${w.internal._id}[data-status="SETTLED"]`).waitFor();
    await txPage.locator(`#tx-${w.internal._id} .tx-head .status`).getByText('SETTLED', { exact: true }).waitFor();
    await node(overview, w.savings._id).locator('.balance').getByText('25.00', { exact: true }).waitFor();
    await node(overview, w.checking._id).locator('.balance').getByText('975.00', { exact: true }).waitFor();
    if (!(await txPage.evaluate(() => window.notReloaded)) || !(await overview.evaluate(() => window.notReloaded))) {
      throw new Error('a page was reloaded');
    }
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

  await check("a webhook's payload is shown and its signature marked valid", async () => {
    const page = await ctx.newPage();
    await page.goto(`${root}/_fake/ui/webhooks?object=${w.internal._id}`);
    const hook = page.locator('article.hook', { has: page.locator('.tx-head .status', { hasText: 'SETTLED' }) }).first();
    await hook.waitFor();
    await hook.locator('summary', { hasText: 'Payload' }).click();
    const payload = JSON.parse(await hook.locator('pre').textContent());
    if (payload._id.$oid !== w.internal._id || payload.recent_status.status !== 'SETTLED') {
      throw new Error('payload ' + JSON.stringify(payload).slice(0, 120));
    }
    await hook.locator('.sig.valid').getByText('Signature valid').waitFor();
    await hook.locator('.attempts li.ok').first().waitFor();
    const delivered = hooks.got.filter((g) => g.id === w.internal._id);
    if (delivered.length === 0 || !delivered.every((g) => g.valid)) throw new Error('the receiver did not get validly signed deliveries');
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

  if (shots) {
    const fs = require('node:fs');
    fs.mkdirSync(shots, { recursive: true });
    const pages = { overview: '/_fake/ui/', transactions: '/_fake/ui/transactions', webhooks: '/_fake/ui/webhooks',
      requests: '/_fake/ui/requests', oauth: '/_fake/ui/oauth' };
    for (const [scheme, width, height] of [['light', 1280, 900], ['dark', 1280, 900], ['light', 390, 844], ['dark', 390, 844]]) {
      const p = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
      for (const [name, path] of Object.entries(pages)) {
        await p.goto(root + path);
        await p.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage: width < 600 ? false : true });
      }
      await p.close();
    }
  }

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
