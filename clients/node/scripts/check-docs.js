#!/usr/bin/env node
// Runs every js block of docs/node.md as written (clients/node/ci.sh calls
// it in its fresh npm project, where the packages, vitest and jest are
// installed):
//
//   node scripts/check-docs.js PROJECT
//
// A block's first line, `// NAME`, names its file (block-N.js without
// one). The blocks of a section for a runner are one suite each, in a
// directory of its own under PROJECT: "node:test" runs each file with
// node --test; "vitest" runs vitest (with the section's config), then
// again with its globalSetup file, if it has one, as the only setup;
// "jest" runs jest (skipped, saying so, when jest is not installed). Any
// other block runs as a script with node, SYNAPSEFAKE_URL naming a fake
// started for them. Each run must pass. Exits non-zero, printing the
// failed run's output, when one does not.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');

const DOC = path.join(__dirname, '..', '..', '..', 'docs', 'node.md');

// blocksOf are the js blocks of a Markdown text: {section, name, code}, the
// section the `## ` heading above it, the name its `// NAME` line's.
function blocksOf(text) {
  const out = [];
  let section = '';
  const re = /^## (.*)$|^```js\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) {
      section = m[1].trim();
      continue;
    }
    const code = m[2];
    const named = /^\/\/ ([\w.-]+\.[cm]?js)\b/.exec(code);
    out.push({ section, name: named ? named[1] : `block-${out.length + 1}.js`, code });
  }
  return out;
}

// run runs cmd in cwd; it throws with the output when the status is not 0.
function run(what, cmd, args, cwd, env) {
  const r = childProcess.spawnSync(cmd, args, {
    cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  if (r.status !== 0) {
    throw new Error(`${what}: ${[cmd, ...args].join(' ')} in ${cwd} exited ${r.status}${r.signal ? ` (${r.signal})` : ''}:\n${r.stdout}\n${r.stderr}`);
  }
  console.log(`check-docs.js: ${what}: ok`);
  return r.stdout;
}

// write writes blocks into a fresh directory; its path.
function write(dir, blocks) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const b of blocks) {
    assert.ok(!fs.existsSync(path.join(dir, b.name)), `two blocks of "${b.section}" are named ${b.name}`);
    fs.writeFileSync(path.join(dir, b.name), b.code);
  }
  return dir;
}

async function main(project) {
  const blocks = blocksOf(fs.readFileSync(DOC, 'utf8'));
  assert.ok(blocks.length >= 9, `${blocks.length} js blocks in ${DOC}`);
  const bin = (name) => path.join(project, 'node_modules', '.bin', name);
  const bySection = (s) => blocks.filter((b) => b.section === s);
  let ran = 0;
  let skipped = 0;

  const nodeTest = bySection('node:test');
  const dir = write(path.join(project, 'docs-node-test'), nodeTest);
  for (const b of nodeTest) run(`node:test ${b.name}`, process.execPath, ['--test', b.name], dir, { NODE_TEST_CONTEXT: '' });
  ran += nodeTest.length;

  const vitest = bySection('vitest');
  const vdir = write(path.join(project, 'docs-vitest'), vitest);
  run(`vitest (${vitest.map((b) => b.name).join(', ')})`, bin('vitest'), ['run'], vdir);
  const setup = vitest.find((b) => b.name.startsWith('fake.setup.'));
  if (setup) {
    fs.writeFileSync(path.join(vdir, 'vitest.own-setup.config.mjs'), `export default { test: { globalSetup: ['./${setup.name}'] } };\n`);
    run(`vitest with ${setup.name} as its globalSetup`, bin('vitest'), ['run', '--config', 'vitest.own-setup.config.mjs'], vdir);
  }
  ran += vitest.length;

  const jest = bySection('jest');
  if (fs.existsSync(bin('jest'))) {
    const jdir = write(path.join(project, 'docs-jest'), jest);
    run(`jest (${jest.map((b) => b.name).join(', ')})`, bin('jest'), ['--ci', '--colors=false'], jdir);
    ran += jest.length;
  } else {
    console.log(`check-docs.js: jest is not installed: its ${jest.length} blocks not run (ci.sh --jest runs them)`);
    skipped = jest.length;
  }

  const scripts = blocks.filter((b) => !['node:test', 'vitest', 'jest'].includes(b.section));
  // The project's package, as its blocks get it: a require from this file
  // would resolve to clients/node itself (a package's own name), which has
  // no platform package beside it.
  const { startFake } = createRequire(path.join(project, 'package.json'))('synapsefake');
  const fake = await startFake();
  try {
    const sdir = write(path.join(project, 'docs-scripts'), scripts);
    for (const b of scripts) run(`${b.name} (${b.section})`, process.execPath, [b.name], sdir, { SYNAPSEFAKE_URL: fake.url });
    ran += scripts.length;
  } finally {
    await fake.stop();
  }
  assert.equal(ran + skipped, blocks.length, 'every block ran');
  console.log(`check-docs.js: ${ran} of the ${blocks.length} js blocks of docs/node.md ran${skipped ? `, ${skipped} jest blocks not run` : ''}`);
}

if (require.main === module) {
  const project = process.argv[2];
  if (!project) {
    console.error('usage: node scripts/check-docs.js PROJECT');
    process.exit(2);
  }
  main(path.resolve(project)).catch((err) => {
    console.error(`check-docs.js: ${err.message}`);
    process.exit(1);
  });
}

module.exports = { blocksOf };
