import { defineConfig } from 'vitest/config';

/** The test suite without the control-plane global setup: generator, conversion and other unit tests. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'generated/**/*.test.ts'],
    exclude: ['test/control-plane/**', '**/*.plane.test.ts', 'node_modules/**'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
