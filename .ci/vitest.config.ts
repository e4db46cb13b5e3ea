import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './vitest-summary-reporter.js';

export default defineConfig({
  test: {
    root: '.',
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['.ci/vitest.global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default', new SummaryReporter()],
    typecheck: { enabled: false },
  },
});
