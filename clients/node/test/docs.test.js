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
