// synapsefake/jest/teardown: a jest globalTeardown that stops the binary
// synapsefake/jest/setup (or a globalSetup from synapsefake/jest) started.
'use strict';

const { globalTeardown } = require('./jest.js');

module.exports = globalTeardown;
