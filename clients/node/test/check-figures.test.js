// scripts/check-figures.js, which ci.sh runs on the example suites' logs.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { tempDir } = require('./helpers.js');

const script = path.join(__dirname, '..', 'scripts', 'check-figures.js');

// log is what an example suite prints: start-up beyond the binary's own
// start, and the platform median.
const log = (startup, platform) => [
  'synapsefake: binary from package (/x/bin/synapsefake)',
  `synapsefake: spawn to banner 10.0 ms, spawn to ready 14.0 ms: starting costs ${startup} ms beyond the binary's own start`,
  `synapsefake: a fresh platform per test: median ${platform} ms over 6 platforms made one at a time; 4 more made while other tests ran: median 30.00 ms`,
].join('\n');

test('check-figures: under, over and far over each target; a log without figures', (t) => {
  const dir = tempDir(t);
  const cases = [
    { name: 'under both targets', text: log('4.1', '1.05'), status: 0, out: [/a: start-up beyond the binary's own start: 4\.1 ms, under the 50 ms target/, /a: a fresh platform per test, median: 1\.05 ms, under the 5 ms target/] },
    { name: 'over, within the margin', text: log('60.0', '7.20'), status: 0, out: [/60 ms, over the 50 ms target, within the margin \(100 ms\)/, /7\.2 ms, over the 5 ms target, within the margin \(10 ms\)/] },
    { name: 'start-up over twice its target', text: log('100.5', '1.00'), status: 1, out: [/100\.5 ms, OVER 2 x the 50 ms target: failed/] },
    { name: 'a platform over twice its target', text: log('4.0', '10.01'), status: 1, out: [/10\.01 ms, OVER 2 x the 5 ms target: failed/] },
    { name: 'no figures', text: 'ok 1 - a test\n', status: 1, out: [/a: no figure for start-up/, /a: no figure for a fresh platform/] },
  ];
  for (const c of cases) {
    const file = path.join(dir, 'log.txt');
    fs.writeFileSync(file, c.text);
    const r = childProcess.spawnSync(process.execPath, [script, `a=${file}`], { encoding: 'utf8' });
    assert.equal(r.status, c.status, `${c.name}: ${r.stdout}${r.stderr}`);
    for (const re of c.out) assert.match(r.stdout, re, c.name);
  }
});
