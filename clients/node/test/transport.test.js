// The control client's transport (control.js): its small HTTP/1.1 client
// over node:net, against servers that answer as the fake does and as it
// might (chunked, until close, a kept connection closed meanwhile, no
// answer at all).
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { Control } = require('synapsefake');

// serve starts an HTTP server on a free loopback port whose requests
// handler answers; it counts the connections it accepted and is closed
// after the test.
async function serve(t, handler) {
  const server = http.createServer(handler);
  const sockets = new Set();
  server.connections = 0;
  server.on('connection', (s) => {
    server.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  server.url = `http://127.0.0.1:${server.address().port}`;
  return server;
}

// serveRaw is serve for a server that writes its answers' bytes itself:
// answer(request text, socket) for each request read.
async function serveRaw(t, answer) {
  const server = net.createServer((s) => {
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n\r\n')) {
        answer(got, s);
        got = '';
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

test('a call: its request line, headers and body as sent; a chunked answer split inside a character', async (t) => {
  let seen;
  const server = await serve(t, (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      const bytes = Buffer.from(JSON.stringify({ user: { legal_names: ['Zoë Ünal'] } }));
      const cut = bytes.indexOf(Buffer.from('ë')) + 1; // between the two bytes of ë
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(bytes.subarray(0, cut));
      res.end(bytes.subarray(cut));
    });
  });
  const ctl = new Control(`${server.url}/_fake/platforms/p1`, { token: 'secret' });
  const user = await ctl.addUser({ legal_names: ['Zoë Ünal'] });
  assert.deepEqual(user, { legal_names: ['Zoë Ünal'] });
  assert.equal(seen.method, 'POST');
  assert.equal(seen.url, '/_fake/platforms/p1/users');
  assert.equal(seen.body, '{"legal_names":["Zoë Ünal"]}');
  assert.equal(seen.headers['content-length'], String(Buffer.byteLength(seen.body)));
  assert.equal(seen.headers.host, server.url.slice('http://'.length));
  assert.equal(seen.headers['content-type'], 'application/json');
  assert.equal(seen.headers['x-fake-control-token'], 'secret');
  assert.match(seen.headers['x-synapsefake-client'], /^node\//);
});

test('one connection for calls one after another; one more for each call in flight at once, each answer to its call', async (t) => {
  const server = await serve(t, (req, res) => {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('n'));
    // The later calls answer first.
    setTimeout(() => res.end(JSON.stringify({ n })), (3 - n) * 5);
  });
  const ctl = new Control(server.url);
  for (let n = 0; n < 5; n++) assert.deepEqual(await ctl.call('GET', 'echo', undefined, { n }), { n });
  assert.equal(server.connections, 1);
  const answers = await Promise.all([0, 1, 2].map((n) => ctl.call('GET', 'echo', undefined, { n })));
  assert.deepEqual(answers, [{ n: 0 }, { n: 1 }, { n: 2 }]);
  assert.equal(server.connections, 3);
});

test('a kept connection the server drops at the next request: the call is made again on a new one', async (t) => {
  let requests = 0;
  const server = await serve(t, (req, res) => {
    requests++;
    if (requests === 2) return req.socket.destroy(); // no answer
    res.end(JSON.stringify({ requests }));
  });
  const ctl = new Control(server.url);
  assert.deepEqual(await ctl.call('GET', 'clock'), { requests: 1 });
  assert.deepEqual(await ctl.call('POST', 'clock/advance', { duration: '1h' }), { requests: 3 });
  assert.equal(server.connections, 2);
});

test('a new connection closed with no answer: an error naming the call and the fake, not made again', async (t) => {
  let requests = 0;
  const server = await serve(t, (req) => {
    requests++;
    req.socket.destroy();
  });
  const err = await new Control(server.url).call('GET', 'clock').then(() => null, (e) => e);
  assert.ok(err, 'the call resolved');
  assert.equal(err.message, `GET /_fake/clock: the connection closed before the answer (is the fake at ${server.url} running?)`);
  assert.equal(err.code, 'ECONNRESET');
  assert.equal(requests, 1);
});

test('no fake listening: the error names the call, the fake and the cause', async () => {
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const err = await new Control(`http://127.0.0.1:${port}/v3.1`).now().then(() => null, (e) => e);
  assert.equal(err.code, 'ECONNREFUSED');
  assert.match(err.message, new RegExp(`^GET /_fake/clock: connect ECONNREFUSED 127\\.0\\.0\\.1:${port} \\(is the fake at http://127\\.0\\.0\\.1:${port} running\\?\\)$`));
});

test('no answer within the timeout: ETIMEDOUT, and the connection is not kept', async (t) => {
  let requests = 0;
  const server = await serve(t, (req, res) => {
    requests++;
    if (requests === 1) return; // never answers
    res.end('{"ok":true}');
  });
  const ctl = new Control(server.url, { timeout: 50 });
  const err = await ctl.call('GET', 'slow').then(() => null, (e) => e);
  assert.equal(err.code, 'ETIMEDOUT');
  assert.match(err.message, /^GET \/_fake\/slow: no answer within 50 ms/);
  assert.deepEqual(await ctl.call('GET', 'fast'), { ok: true });
  assert.equal(server.connections, 2);
});

test('an answer after a 100 Continue, with no length, running until the connection closes', async (t) => {
  const url = await serveRaw(t, (got, s) => {
    s.write('HTTP/1.1 100 Continue\r\n\r\n');
    s.write('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error_code":"404",');
    s.end('"http_code":"404","error":{"code":"unable_to_locate_user","en":"Unable to locate user."}}');
  });
  const err = await new Control(url).user('u1').then(() => null, (e) => e);
  assert.deepEqual([err.status, err.errorCode, err.code, err.reason], [404, '404', 'unable_to_locate_user', 'Unable to locate user.']);
});

test('an answer that is not HTTP: an error saying so', async (t) => {
  const url = await serveRaw(t, (got, s) => s.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
  await assert.rejects(new Control(url).now(), /^Error: GET \/_fake\/clock: not an HTTP\/1\.1 answer: "SSH-2\.0-OpenSSH_9\.6"/);
});

test('a header value with a line break is refused before anything is sent', async (t) => {
  const server = await serve(t, (req, res) => res.end('{}'));
  await assert.rejects(new Control(server.url, { token: 'a\r\nX-Evil: 1' }).now(), /^TypeError: the header X-Fake-Control-Token holds a line break or a NUL$/);
  assert.equal(server.connections, 0);
});

test('a kept connection does not keep the process alive', async (t) => {
  const server = await serve(t, (req, res) => res.end('{"now":1}'));
  const control = path.join(__dirname, '..', 'control.js');
  const script = `new (require(${JSON.stringify(control)}).Control)(${JSON.stringify(server.url)}).nowMs().then((n) => console.log('now', n));`;
  // A kept connection that held the process would hold it until killed.
  const child = childProcess.spawn(process.execPath, ['-e', script], { timeout: 20_000 });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const [status, signal] = await new Promise((resolve) => child.on('close', (...a) => resolve(a)));
  assert.deepEqual([status, signal, out], [0, null, 'now 1\n']);
});

// asked is a server whose first request resolves `first` with its method
// and path (and answers the clock).
async function asked(t) {
  let seen;
  const first = new Promise((resolve) => (seen = resolve));
  const server = await serve(t, (req, res) => {
    seen(`${req.method} ${req.url}`);
    res.end('{"now":1776175200000}');
  });
  return { server, first };
}

test('connect asks the fake\'s clock at once, opening the connection the first platform then finds', { timeout: 10_000 }, async (t) => {
  const { server, first } = await asked(t);
  require('synapsefake').connect(`${server.url}/v3.1`);
  assert.equal(await first, 'GET /_fake/clock');
});

test('jest\'s usePlatform connects when it is called, before any test runs', { timeout: 10_000 }, async (t) => {
  const { server, first } = await asked(t);
  const saved = process.env.SYNAPSEFAKE_URL;
  process.env.SYNAPSEFAKE_URL = `${server.url}/v3.1`;
  t.after(() => {
    if (saved === undefined) delete process.env.SYNAPSEFAKE_URL;
    else process.env.SYNAPSEFAKE_URL = saved;
  });
  // Hooks registered, none run.
  require('synapsefake/jest').usePlatform(undefined, { beforeEach() {}, afterEach() {} });
  assert.equal(await first, 'GET /_fake/clock');
});
