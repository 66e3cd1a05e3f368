// Shared by the package's own tests.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** A fresh temporary directory, removed when the process exits. */
function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsefake-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes an executable shell script at dir/name; its path. */
function script(dir, name, body, mode = 0o755) {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, mode);
  return file;
}

/**
 * The real binary for the tests that run it: $SYNAPSEFAKE_BIN (ci.sh sets
 * it), or undefined, and those tests are skipped with a reason.
 */
const realBinary = process.env.SYNAPSEFAKE_BIN;
const needsBinary = realBinary ? {} : { skip: 'SYNAPSEFAKE_BIN is not set (go build -o /tmp/synapsefake ./cmd/synapsefake; SYNAPSEFAKE_BIN=/tmp/synapsefake)' };

module.exports = { tempDir, script, realBinary, needsBinary };
