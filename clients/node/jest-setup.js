// synapsefake/jest/setup: a jest globalSetup that starts one synapsefake
// binary for the whole run and passes its URL to the test workers as
// process.env.SYNAPSEFAKE_URL (synapsefake/jest's usePlatform reads it);
// synapsefake/jest/teardown stops it.
//
//   // jest.config.js
//   module.exports = {
//     globalSetup: 'synapsefake/jest/setup',
//     globalTeardown: 'synapsefake/jest/teardown',
//   };
//
// For startFake options, a globalSetup file of your own:
//   module.exports = require('synapsefake/jest').globalSetup({ start: 'default' });
'use strict';

const { globalSetup } = require('./jest.js');

module.exports = globalSetup();
