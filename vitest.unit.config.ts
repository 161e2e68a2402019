import { defineConfig } from 'vitest/config';

/**
 * Tests that need no database or browser: the contract, the web app's pure logic and the lint
 * rules on their fixtures.
 */
export default defineConfig({
  test: {
    name: 'unit',
    include: [
      'packages/contract/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'apps/web/build/**/*.test.ts',
      'lint-fixtures/*.test.ts',
    ],
  },
});
