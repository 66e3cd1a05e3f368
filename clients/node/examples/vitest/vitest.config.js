import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One synapsefake binary for the whole run; its URL is provided to
    // every test file (inject('synapsefake')).
    globalSetup: ['synapsefake/vitest/setup'],
  },
});
