// findBinary's search order (option, SYNAPSEFAKE_BIN, the platform
// package, PATH) and its error when none is there.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { findBinary, platformPackage } = require('synapsefake');
const { tempDir, script } = require('./helpers.js');

// layout makes a binary for each place findBinary looks, and a resolve
// that finds the platform package in the temporary directory.
function layout(t) {
  const dir = tempDir(t);
  const files = {
    option: script(dir, 'option/synapsefake', 'exit 0'),
    env: script(dir, 'env/synapsefake', 'exit 0'),
    pkg: script(dir, 'node_modules/@synapsefake/linux-x64/bin/synapsefake', 'exit 0'),
    path: script(dir, 'path/synapsefake', 'exit 0'),
  };
  fs.writeFileSync(path.join(dir, 'node_modules/@synapsefake/linux-x64/package.json'), '{"name":"@synapsefake/linux-x64"}');
  const resolve = (id) => {
    const file = path.join(dir, 'node_modules', id);
    if (!fs.existsSync(file)) throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    return file;
  };
  return { dir, files, resolve };
}

const linux = { platform: 'linux', arch: 'x64' };

test('platformPackage names @synapsefake/<os>-<arch> as Node does', () => {
  assert.equal(platformPackage('linux', 'x64'), '@synapsefake/linux-x64');
  assert.equal(platformPackage('win32', 'arm64'), '@synapsefake/win32-arm64');
  assert.equal(platformPackage(), `@synapsefake/${process.platform}-${process.arch}`);
});

test('the order: the bin option, SYNAPSEFAKE_BIN, the platform package, PATH', (t) => {
  const { dir, files, resolve } = layout(t);
  const env = { SYNAPSEFAKE_BIN: files.env, PATH: path.join(dir, 'path') };
  assert.deepEqual([findBinary({ ...linux, resolve, env, bin: files.option }).path, findBinary({ ...linux, resolve, env, bin: files.option }).source], [files.option, 'option']);
  assert.deepEqual([findBinary({ ...linux, resolve, env }).path, findBinary({ ...linux, resolve, env }).source], [files.env, 'SYNAPSEFAKE_BIN']);
  delete env.SYNAPSEFAKE_BIN;
  const fromPackage = findBinary({ ...linux, resolve, env });
  assert.deepEqual([fromPackage.path, fromPackage.source], [files.pkg, 'package']);
  fs.rmSync(files.pkg);
  const fromPath = findBinary({ ...linux, resolve, env });
  assert.deepEqual([fromPath.path, fromPath.source], [files.path, 'PATH']);
  assert.match(fromPath.tried.join('\n'), /the package @synapsefake\/linux-x64 \(.*bin\/synapsefake: no such file\)/);
});

test('PATH: the first directory with an executable synapsefake; one not executable is passed over', (t) => {
  const dir = tempDir(t);
  script(dir, 'a/synapsefake', 'exit 0', 0o644);
  const b = script(dir, 'b/synapsefake', 'exit 0');
  script(dir, 'c/synapsefake', 'exit 0');
  const env = { PATH: ['a', 'b', 'c'].map((d) => path.join(dir, d)).join(path.delimiter) };
  assert.equal(findBinary({ ...linux, env, resolve: () => { throw new Error('no'); } }).path, b);
});

test('none found: the error says what it tried and how to get one', () => {
  const env = { PATH: '/nonexistent-a:/nonexistent-b' };
  assert.throws(() => findBinary({ ...linux, env, resolve: () => { throw new Error('no'); } }), (err) => {
    assert.match(err.message, /no synapsefake binary found/);
    assert.match(err.message, /SYNAPSEFAKE_BIN \(not set\)/);
    assert.match(err.message, /the package @synapsefake\/linux-x64 \(not installed\)/);
    assert.match(err.message, /synapsefake on PATH \(not in \/nonexistent-a:\/nonexistent-b\)/);
    assert.match(err.message, /set SYNAPSEFAKE_BIN/);
    return true;
  });
});

test('Windows: the package\'s bin/synapsefake.exe, and the error names synapsefake.exe', () => {
  assert.throws(() => findBinary({ platform: 'win32', arch: 'arm64', env: {}, resolve: () => { throw new Error('no'); } }),
    /the package @synapsefake\/win32-arm64 \(not installed\).*synapsefake\.exe on PATH \(PATH is empty\)/);
});

test('SYNAPSEFAKE_BIN or the bin option naming no binary is an error, not a reason to look further', (t) => {
  const { files, resolve } = layout(t);
  assert.throws(() => findBinary({ ...linux, resolve, env: { SYNAPSEFAKE_BIN: '/nonexistent/synapsefake' } }),
    /SYNAPSEFAKE_BIN names \/nonexistent\/synapsefake, which is not there/);
  fs.chmodSync(files.env, 0o644);
  assert.throws(() => findBinary({ ...linux, resolve, env: { SYNAPSEFAKE_BIN: files.env } }), /which is not executable/);
  assert.throws(() => findBinary({ ...linux, resolve, env: {}, bin: path.dirname(files.option) }), /the bin option names .*, which is not a regular file/);
});
