#!/usr/bin/env node
// make-packages.js writes the npm packages of a release: one platform
// package per binary, @synapsefake/<os>-<arch> (package.json with "os" and
// "cpu", the binary at bin/synapsefake or bin/synapsefake.exe, a README),
// and the main package, synapsefake (clients/node's files), whose
// optionalDependencies pin those platform packages to the same version, so
// that npm installs only the one for the machine (as esbuild ships its
// binaries). Each is packed with `npm pack` into OUTDIR as a .tgz; the last
// lines of the output name them. No dependencies: node 18 and npm.
//
//   node clients/node/scripts/make-packages.js TAG OUTDIR GOOS/GOARCH=BINARY...
//
//   TAG          the Go release tag: v1.2.3, v1.2.3-rc.1 or
//                v0.0.0-snapshot.<commit>; the packages' version is it without
//                the v (a numeric identifier with a leading zero, as in a
//                commit 0123456, gets a "g" in front so that the version is
//                valid semver: 0.0.0-snapshot.g0123456)
//   OUTDIR       where the .tgz files go (made if missing)
//   GOOS/GOARCH  linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
//                windows/amd64 windows/arm64, each = the path of that binary
//
// The main package lists as optionalDependencies exactly the platforms
// given: a release gives all six; CI (clients/node/ci.sh) only its own.
// Example (scripts/release.sh builds the binaries into dist/):
//
//   node clients/node/scripts/make-packages.js v1.2.3 dist/npm \
//     linux/amd64=dist/linux-amd64/synapsefake linux/arm64=dist/linux-arm64/synapsefake \
//     darwin/amd64=dist/darwin-amd64/synapsefake darwin/arm64=dist/darwin-arm64/synapsefake \
//     windows/amd64=dist/windows-amd64/synapsefake.exe windows/arm64=dist/windows-arm64/synapsefake.exe
//
// then publish them, platform packages first:
//   for f in dist/npm/synapsefake-*-*.tgz; do npm publish "$f" --access public; done
//   npm publish dist/npm/synapsefake-1.2.3.tgz
// (a prerelease needs --tag next, as npm refuses to make one "latest").
'use strict';

const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const GOOS = { linux: 'linux', darwin: 'darwin', windows: 'win32' };
const GOARCH = { amd64: 'x64', arm64: 'arm64' };
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const HERE = path.resolve(__dirname, '..');

/**
 * The npm version of a Go release tag: v1.2.3 -> 1.2.3, v1.2.3-rc.1 ->
 * 1.2.3-rc.1, v0.0.0-snapshot.0abc -> 0.0.0-snapshot.0abc (an all-digit
 * identifier with a leading zero gets a "g" in front). Not such a tag: an
 * Error.
 * @param {string} tag
 * @returns {string}
 */
function npmVersion(tag) {
  const m = /^v?(\d+\.\d+\.\d+)(?:-([^+]*))?(?:\+(.*))?$/.exec(String(tag));
  if (!m) throw new Error(`make-packages: ${JSON.stringify(tag)} is not a release tag (v1.2.3, v1.2.3-rc.1, v0.0.0-snapshot.<commit>)`);
  let v = m[1];
  if (m[2] !== undefined) v += '-' + m[2].split('.').map((id) => (/^0\d+$/.test(id) ? 'g' + id : id)).join('.');
  if (m[3] !== undefined) v += '+' + m[3];
  if (!SEMVER.test(v)) throw new Error(`make-packages: ${JSON.stringify(tag)} gives ${JSON.stringify(v)}, which is not a valid semver version`);
  return v;
}

/**
 * A GOOS/GOARCH=BINARY argument as {goos, goarch, os, cpu, name, exe, binary}.
 * @param {string} arg
 */
function target(arg) {
  const m = /^([a-z0-9]+)\/([a-z0-9]+)=(.+)$/.exec(arg);
  if (!m) throw new Error(`make-packages: ${JSON.stringify(arg)} is not GOOS/GOARCH=BINARY (linux/amd64=dist/synapsefake)`);
  const [, goos, goarch, binary] = m;
  if (!GOOS[goos] || !GOARCH[goarch]) {
    throw new Error(`make-packages: ${goos}/${goarch} is none of ${Object.keys(GOOS).flatMap((o) => Object.keys(GOARCH).map((a) => `${o}/${a}`)).join(' ')}`);
  }
  if (!fs.statSync(binary, { throwIfNoEntry: false })?.isFile()) throw new Error(`make-packages: ${goos}/${goarch}: ${binary} is not a file`);
  const npmOS = GOOS[goos];
  const cpu = GOARCH[goarch];
  return { goos, goarch, os: npmOS, cpu, name: `@synapsefake/${npmOS}-${cpu}`, exe: goos === 'windows' ? 'synapsefake.exe' : 'synapsefake', binary };
}

const REPOSITORY = { type: 'git', url: 'git+https://github.com/synapsefake/synapsefake.git' };

// writePlatform writes the platform package of t at dir.
function writePlatform(t, version, dir) {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  const manifest = {
    name: t.name,
    version,
    description: `The synapsefake binary for ${t.os} ${t.cpu} (${t.goos}/${t.goarch}), installed by the synapsefake package.`,
    license: 'MIT',
    repository: { ...REPOSITORY, directory: 'clients/node' },
    os: [t.os],
    cpu: [t.cpu],
    files: ['bin/', 'README.md'],
    preferUnplugged: true,
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  fs.copyFileSync(t.binary, path.join(dir, 'bin', t.exe));
  fs.chmodSync(path.join(dir, 'bin', t.exe), 0o755);
  fs.writeFileSync(path.join(dir, 'README.md'), `# ${t.name}

The \`synapsefake\` binary (${t.goos}/${t.goarch}), version ${version}, for Node's
\`synapsefake\` package, which lists this package as an optional dependency: npm installs
it only on ${t.os} ${t.cpu}. Do not depend on it yourself; install \`synapsefake\`.
The binary is at \`bin/${t.exe}\`. Documentation: https://github.com/synapsefake/synapsefake/blob/main/docs/node.md
`);
}

// writeMain writes the main package at dir: clients/node's files, with
// version and the platforms as optionalDependencies.
function writeMain(targets, version, dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, 'package.json'), 'utf8'));
  manifest.version = version;
  manifest.optionalDependencies = Object.fromEntries(targets.map((t) => [t.name, version]));
  delete manifest.scripts;
  delete manifest.devDependencies;
  fs.mkdirSync(dir, { recursive: true });
  for (const f of manifest.files) fs.copyFileSync(path.join(HERE, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
}

// pack runs npm pack in dir, the tarball into out; its file name.
function pack(dir, out) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = childProcess.spawnSync(npm, ['pack', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status !== 0) throw new Error(`make-packages: npm pack in ${dir} failed (status ${r.status}):\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout)[0].filename;
}

/**
 * Writes and packs the packages; resolves to the .tgz paths, the platform
 * packages first and the main one last.
 * @param {string} tag
 * @param {string} outDir
 * @param {string[]} pairs GOOS/GOARCH=BINARY
 * @returns {string[]}
 */
function makePackages(tag, outDir, pairs) {
  const version = npmVersion(tag);
  if (pairs.length === 0) throw new Error('make-packages: no GOOS/GOARCH=BINARY given');
  const targets = pairs.map(target);
  const seen = new Set();
  for (const t of targets) {
    if (seen.has(t.name)) throw new Error(`make-packages: ${t.goos}/${t.goarch} given twice`);
    seen.add(t.name);
  }
  const out = path.resolve(outDir);
  fs.mkdirSync(out, { recursive: true });
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsefake-packages-'));
  try {
    const files = [];
    for (const t of targets) {
      const dir = path.join(stage, `${t.os}-${t.cpu}`);
      writePlatform(t, version, dir);
      files.push(path.join(out, pack(dir, out)));
    }
    const main = path.join(stage, 'synapsefake');
    writeMain(targets, version, main);
    files.push(path.join(out, pack(main, out)));
    return files;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [tag, outDir, ...pairs] = process.argv.slice(2);
  if (!tag || !outDir || pairs.length === 0) {
    console.error('usage: node make-packages.js TAG OUTDIR GOOS/GOARCH=BINARY... (the header of this file says more)');
    process.exit(2);
  }
  try {
    for (const f of makePackages(tag, outDir, pairs)) console.log(f);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

module.exports = { npmVersion, makePackages };
