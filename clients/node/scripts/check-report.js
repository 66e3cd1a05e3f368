#!/usr/bin/env node
// Checks the failure report of synapsefake/vitest and synapsefake/jest in a
// real run (clients/node/ci.sh calls it in its fresh npm project, where the
// runner and the packages are installed):
//
//   node scripts/check-report.js vitest|jest PROJECT
//
// It writes a small suite into PROJECT/report-RUNNER: tests that each make
// a refused API request on their platform, one of them failing, with the
// fixture and with usePlatform (vitest), or with usePlatform (jest). The
// run must fail (one failed test per way), the failed tests' output must
// hold "synapsefake requests" with the refusal's reason and its hint in
// Node's calls (platform.gateway), and the passing tests' names must not
// come with a report. Exits non-zero, printing the run's output, when not.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [runner, project] = process.argv.slice(2);
if (!['vitest', 'jest'].includes(runner) || !project) {
  console.error('usage: node scripts/check-report.js vitest|jest PROJECT');
  process.exit(2);
}

// refused makes an API request with a wrong client secret, on a path that
// names the test: 401, and the journal's reason names the gateway the test
// should send.
const refused = `async function refused(platform, tag) {
  const res = await fetch(platform.baseUrl + '/users/' + tag, { headers: { 'X-SP-GATEWAY': platform.clientId + '|not-the-secret' } });
  return res.status;
}`;

const suites = {
  vitest: {
    files: {
      'vitest.config.mjs': `export default { test: { globalSetup: ['synapsefake/vitest/setup'], include: ['*.test.mjs'] } };\n`,
      'report.test.mjs': `import { describe, expect } from 'vitest';
import { test, usePlatform } from 'synapsefake/vitest';
${refused}

test('fixture fails', async ({ platform }) => {
  expect(await refused(platform, 'fixture-fails')).toBe(200);
});

test('fixture passes', async ({ platform }) => {
  expect(await refused(platform, 'fixture-passes')).toBe(401);
});

describe('usePlatform', () => {
  const platform = usePlatform();
  test('hooks fail', async () => {
    expect(await refused(platform, 'hooks-fails')).toBe(200);
  });
  test('hooks pass', async () => {
    expect(await refused(platform, 'hooks-passes')).toBe(401);
  });
});
`,
    },
    command: (dir) => [path.join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=verbose'], dir],
    failing: ['fixture-fails', 'hooks-fails'],
    passing: ['fixture-passes', 'hooks-passes'],
  },
  jest: {
    files: {
      'jest.config.js': `module.exports = { testEnvironment: 'node', globalSetup: 'synapsefake/jest/setup', globalTeardown: 'synapsefake/jest/teardown' };\n`,
      'report.test.js': `const { usePlatform } = require('synapsefake/jest');
${refused}

const platform = usePlatform();
test('hooks fail', async () => {
  expect(await refused(platform, 'hooks-fails')).toBe(200);
});
test('hooks pass', async () => {
  expect(await refused(platform, 'hooks-passes')).toBe(401);
});
`,
    },
    command: (dir) => [path.join(project, 'node_modules', '.bin', 'jest'), ['--ci', '--colors=false'], dir],
    failing: ['hooks-fails'],
    passing: ['hooks-passes'],
  },
};

const suite = suites[runner];
const dir = path.join(project, `report-${runner}`);
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(suite.files)) fs.writeFileSync(path.join(dir, name), text);

const [cmd, args, cwd] = suite.command(dir);
const run = childProcess.spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: 120_000 });
const out = `${run.stdout}\n${run.stderr}`;
try {
  assert.equal(run.status, 1, 'the run fails: its failing tests fail');
  const reports = out.split('synapsefake requests').slice(1);
  assert.equal(reports.length, suite.failing.length, 'one report per failed test');
  for (const tag of suite.failing) {
    const report = reports.find((r) => r.includes(`/users/${tag} -> 401`));
    assert.ok(report, `a report lists the failed test's request (${tag})`);
    assert.match(report, /GET \/v3\.1\/users\/\S+ -> 401 error_code 100: X-SP-GATEWAY's client_secret is not this fake's \(hint: send X-SP-GATEWAY: "<client_id>\|<client_secret>"; platform\.gateway is this fake's\)/);
  }
  for (const tag of suite.passing) assert.ok(!out.includes(`/users/${tag}`), `no report shows the passing test's request (${tag})`);
} catch (err) {
  console.error(out);
  console.error(`check-report.js ${runner}: ${err.message}`);
  process.exit(1);
}
console.log(`check-report.js ${runner}: each failed test's output holds its platform's requests (${suite.failing.length}); the passing tests' hold none`);
