import { defineConfig } from 'vitest/config';

/** Tests that need no database or browser: the contract and the web app's pure logic. */
export default defineConfig({
  test: {
    name: 'unit',
    include: ['packages/contract/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
  },
});
