// The entry points: CommonJS and ES modules give the same objects; every
// subpath of "exports" loads; the .d.ts files declare what the modules
// export (no TypeScript compiler: a check of names).
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');

test('require and import of synapsefake give the same objects', async () => {
  const cjs = require('synapsefake');
  const esm = await import('synapsefake');
  const names = ['startFake', 'connect', 'findBinary', 'platformPackage', 'Fake', 'StartedFake', 'Platform', 'Control', 'ControlError', 'DEFAULT_START_TIME'];
  assert.deepEqual(Object.keys(cjs).sort(), [...names].sort());
  for (const n of names) assert.equal(esm[n], cjs[n], n);
  assert.equal(esm.default, cjs);
  assert.equal(require('synapsefake/control').ControlError, cjs.ControlError);
});

test('the subpaths load: jest (require), jest/setup, jest/teardown, vitest/setup (import)', async () => {
  assert.deepEqual(Object.keys(require('synapsefake/jest')).sort(), ['globalSetup', 'globalTeardown', 'reportFailure', 'useFake', 'usePlatform']);
  assert.equal(typeof require('synapsefake/jest/setup'), 'function');
  assert.equal(require('synapsefake/jest/teardown'), require('synapsefake/jest').globalTeardown);
  const setup = await import('synapsefake/vitest/setup');
  assert.deepEqual(Object.keys(setup).sort(), ['PROVIDE_KEY', 'globalSetup', 'setup', 'teardown']);
  // synapsefake/vitest imports vitest, which is not a dependency here: its
  // export map entry is enough.
  const pkg = JSON.parse(read('package.json'));
  assert.deepEqual(pkg.exports['./vitest'], { types: './vitest.d.ts', import: './vitest.mjs' });
});

test('package.json: no runtime dependencies; every file "exports" names is in "files" and exists', () => {
  const pkg = JSON.parse(read('package.json'));
  assert.equal(pkg.name, 'synapsefake');
  assert.equal(pkg.dependencies, undefined);
  const targets = Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  for (const f of targets) {
    const name = f.replace(/^\.\//, '');
    assert.ok(name === 'package.json' || pkg.files.includes(name), `${name} is not in files`);
    assert.ok(fs.existsSync(path.join(root, name)), `${name} is missing`);
  }
  for (const f of pkg.files) assert.ok(fs.existsSync(path.join(root, f)), `${f} (files) is missing`);
});

// declared is the names a .d.ts declares with export function/class/const.
function declared(file) {
  return new Set([...read(file).matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]));
}

test('index.d.ts declares every export of index.js', () => {
  const names = declared('index.d.ts');
  for (const m of read('index.d.ts').matchAll(/^export \{ ([^}]+) \} from/gm)) m[1].split(',').forEach((n) => names.add(n.trim()));
  assert.deepEqual([...names].sort(), Object.keys(require('synapsefake')).sort());
});

test('control.d.ts declares every method of Control, with ControlError\'s fields', () => {
  const { Control } = require('synapsefake');
  const dts = read('control.d.ts');
  const body = dts.slice(dts.indexOf('export class Control {'));
  const methods = new Set([...body.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]).filter((m) => m !== 'constructor'));
  const actual = Object.getOwnPropertyNames(Control.prototype).filter((m) => m !== 'constructor');
  assert.deepEqual(actual.filter((m) => !methods.has(m)), [], 'methods without a declaration');
  assert.deepEqual([...methods].filter((m) => !actual.includes(m)), [], 'declarations without a method');
  for (const f of ['errorCode', 'httpCode', 'reason', 'status', 'code', 'en', 'envelope']) assert.match(dts, new RegExp(`^ {2}${f}: `, 'm'), f);
});

test('the jest and vitest .d.ts files declare their modules\' exports', async () => {
  assert.deepEqual([...declared('jest.d.ts')].sort(), Object.keys(require('synapsefake/jest')).sort());
  assert.deepEqual([...declared('vitest-setup.d.ts')].sort(), Object.keys(await import('synapsefake/vitest/setup')).sort());
  const vitestExports = [...read('vitest.mjs').matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...declared('vitest.d.ts')].sort(), vitestExports.sort());
});
