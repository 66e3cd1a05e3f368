// scripts/make-packages.js: the version from a Go tag, and the packages it
// packs (npm pack).
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { npmVersion } = require('../scripts/make-packages.js');
const { tempDir, script } = require('./helpers.js');

const makePackages = path.join(__dirname, '..', 'scripts', 'make-packages.js');

test('npmVersion: a Go tag to a valid semver version', () => {
  assert.equal(npmVersion('v1.2.3'), '1.2.3');
  assert.equal(npmVersion('v1.2.3-rc.1'), '1.2.3-rc.1');
  assert.equal(npmVersion('v0.0.0-snapshot.a1b2c3d'), '0.0.0-snapshot.a1b2c3d');
  assert.equal(npmVersion('v0.0.0-snapshot.0123456'), '0.0.0-snapshot.g0123456');
  assert.equal(npmVersion('v0.0.0-snapshot.1234567'), '0.0.0-snapshot.1234567');
  assert.throws(() => npmVersion('1.2'), /"1.2" is not a release tag/);
  assert.throws(() => npmVersion('v1.2.3-rc..1'), /not a valid semver version/);
});

// tarFile reads one file of a .tgz.
const tarFile = (tgz, file) => childProcess.execFileSync('tar', ['-xzOf', tgz, `package/${file}`], { encoding: 'utf8' });

test('make-packages.js packs a platform package per binary and the main package pinned to them', (t) => {
  const dir = tempDir(t);
  const linux = script(dir, 'linux-amd64/synapsefake', 'echo linux');
  const windows = script(dir, 'windows-arm64/synapsefake.exe', 'echo windows', 0o644);
  const out = path.join(dir, 'out');
  const printed = childProcess.execFileSync(process.execPath, [makePackages, 'v1.2.3-rc.1', out, `linux/amd64=${linux}`, `windows/arm64=${windows}`], { encoding: 'utf8' });
  const files = printed.trim().split('\n');
  assert.deepEqual(files.map((f) => path.basename(f)), ['synapsefake-linux-x64-1.2.3-rc.1.tgz', 'synapsefake-win32-arm64-1.2.3-rc.1.tgz', 'synapsefake-1.2.3-rc.1.tgz']);
  for (const f of files) assert.ok(fs.existsSync(f), f);

  const lx = JSON.parse(tarFile(files[0], 'package.json'));
  assert.deepEqual([lx.name, lx.version, lx.os, lx.cpu], ['@synapsefake/linux-x64', '1.2.3-rc.1', ['linux'], ['x64']]);
  assert.equal(tarFile(files[0], 'bin/synapsefake'), fs.readFileSync(linux, 'utf8'));
  const listing = childProcess.execFileSync('tar', ['-tvzf', files[0]], { encoding: 'utf8' });
  assert.match(listing, /^-rwxr-xr-x .* package\/bin\/synapsefake$/m);
  assert.match(tarFile(files[0], 'README.md'), /@synapsefake\/linux-x64/);
  const win = JSON.parse(tarFile(files[1], 'package.json'));
  assert.deepEqual([win.name, win.os, win.cpu], ['@synapsefake/win32-arm64', ['win32'], ['arm64']]);
  assert.equal(tarFile(files[1], 'bin/synapsefake.exe'), fs.readFileSync(windows, 'utf8'));

  const main = JSON.parse(tarFile(files[2], 'package.json'));
  assert.deepEqual([main.name, main.version], ['synapsefake', '1.2.3-rc.1']);
  assert.deepEqual(main.optionalDependencies, { '@synapsefake/linux-x64': '1.2.3-rc.1', '@synapsefake/win32-arm64': '1.2.3-rc.1' });
  assert.equal(main.dependencies, undefined);
  assert.equal(tarFile(files[2], 'index.js'), fs.readFileSync(path.join(__dirname, '..', 'index.js'), 'utf8'));
});

test('make-packages.js refuses an unknown platform, a missing binary, no binaries', (t) => {
  const dir = tempDir(t);
  const run = (...args) => childProcess.spawnSync(process.execPath, [makePackages, ...args], { encoding: 'utf8' });
  let r = run('v1.0.0', dir, 'plan9/amd64=/bin/sh');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /plan9\/amd64 is none of linux\/amd64 linux\/arm64 darwin\/amd64/);
  r = run('v1.0.0', dir, 'linux/amd64=/nonexistent');
  assert.match(r.stderr, /linux\/amd64: \/nonexistent is not a file/);
  r = run('v1.0.0', dir);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /usage: node make-packages.js TAG OUTDIR GOOS\/GOARCH=BINARY/);
});
