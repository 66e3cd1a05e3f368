// One synapsefake binary for the whole run: the globalSetup starts it and
// passes its URL to the workers in SYNAPSEFAKE_URL; the globalTeardown
// stops it.
module.exports = {
  testEnvironment: 'node',
  globalSetup: 'synapsefake/jest/setup',
  globalTeardown: 'synapsefake/jest/teardown',
};
