// docs/node.md's code: every js block is valid JavaScript, and the
// node:test block runs as written against the real binary.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { needsBinary } = require('./helpers.js');

const doc = path.join(__dirname, '..', '..', '..', 'docs', 'node.md');
const blocks = fs.existsSync(doc) ? [...fs.readFileSync(doc, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]) : [];
const inRepo = blocks.length ? {} : { skip: 'docs/node.md is not beside the package (run from the repository)' };

test('every js block of docs/node.md is valid JavaScript', inRepo, (t) => {
  assert.ok(blocks.length >= 8, `${blocks.length} blocks`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsefake-docs-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  blocks.forEach((code, i) => {
    // An ES module (node --check parses it), or CommonJS, where an await
    // may stand at the top (in an async function or a module).
    const esm = /^(import|export) /m.test(code);
    const file = path.join(dir, `block${i}.${esm ? 'mjs' : 'js'}`);
    fs.writeFileSync(file, esm ? code : `(async () => {\n${code}\n});\n`);
    const r = childProcess.spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, `block ${i + 1}:\n${code}\n${r.stderr}`);
  });
});

test('docs/node.md\'s node:test block runs as written', { ...inRepo, ...needsBinary }, (t) => {
  const code = blocks.find((b) => b.includes("require('node:test')"));
  assert.ok(code, 'the node:test block');
  // Inside the package, so that require('synapsefake') finds it by its name.
  const file = path.join(__dirname, '..', `.docs-node-test-${process.pid}.js`);
  fs.writeFileSync(file, code);
  t.after(() => fs.rmSync(file, { force: true }));
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // a run of its own, not a part of this one
  const r = childProcess.spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', timeout: 30_000, env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 1\n# fail 0/);
});

// twinRows are the rows of docs/node.md's table of calls and their Go
// twins, each an array of its cells.
function twinRows(text) {
  const lines = text.split('\n');
  const at = lines.indexOf('| Node | Route | Go |');
  const rows = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

// callsNamed are the calls a first cell names: each code span that is a
// call, [receiver.]name(...), as [receiver or '', name].
function callsNamed(cell) {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => /^(?:(fake|platform)\.)?([A-Za-z_]\w*)\(/.exec(m[1])).filter(Boolean).map((m) => [m[1] || '', m[2]]);
}

test('docs/node.md\'s table of calls and Go twins names every method of Control, and nothing else', inRepo, () => {
  const { Control, Fake, Platform } = require('synapsefake');
  const rows = twinRows(fs.readFileSync(doc, 'utf8'));
  assert.ok(rows.length > 30, `${rows.length} rows`);
  assert.deepEqual(rows.filter((r) => r.length !== 3), [], 'rows without three cells');
  const calls = rows.flatMap((r) => callsNamed(r[0]));
  const control = calls.filter(([recv]) => recv === '').map(([, name]) => name);
  assert.deepEqual(control.filter((n, i) => control.indexOf(n) !== i), [], 'methods named twice');
  const actual = Object.getOwnPropertyNames(Control.prototype).filter((m) => m !== 'constructor');
  assert.deepEqual(actual.filter((m) => !control.includes(m)).sort(), [], 'methods of Control the table leaves out');
  assert.deepEqual(control.filter((m) => !actual.includes(m)).sort(), [], 'rows naming no method of Control');
  const proto = { fake: Fake.prototype, platform: Platform.prototype };
  for (const [recv, name] of calls.filter(([r]) => r)) assert.equal(typeof proto[recv][name], 'function', `${recv}.${name}`);
});

test('callsNamed: calls, with their receiver; other code spans are not', () => {
  assert.deepEqual(callsNamed('`returnTransaction(txId, code, { late })`, `return(...)` (a `Date`, `\'24h\'`), `fake.createPlatform()`'),
    [['', 'returnTransaction'], ['', 'return'], ['fake', 'createPlatform']]);
});

test('check-docs.js: blocksOf names each js block by its first line, under its section', () => {
  const { blocksOf } = require('../scripts/check-docs.js');
  const text = '# T\n## vitest\n```js\n// vitest.config.mjs\nexport default {};\n```\n\n```js\nconst a = 1;\n```\n## A fake already running\n```sh\necho no\n```\n```js\n// main.mjs: an ES module\nawait 1;\n```\n';
  assert.deepEqual(blocksOf(text).map((b) => [b.section, b.name]), [['vitest', 'vitest.config.mjs'], ['vitest', 'block-2.js'], ['A fake already running', 'main.mjs']]);
});

test('every js block of docs/node.md names its file, and a file of its section once', inRepo, () => {
  const { blocksOf } = require('../scripts/check-docs.js');
  const all = blocksOf(fs.readFileSync(doc, 'utf8'));
  assert.deepEqual(all.filter((b) => b.name.startsWith('block-')).map((b) => b.code), [], 'blocks without a // NAME line');
  const keys = all.map((b) => `${b.section}/${b.name}`);
  assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), []);
  assert.ok(all.some((b) => b.name === 'vitest.config.mjs'), 'the vitest config is an .mjs file');
});
