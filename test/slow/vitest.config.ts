import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';
import { SLOW_SUITES } from './suites.js';

/** `npm run test:slow`: the process-level suites that `npm test` leaves out (./suites.ts). */
export default defineConfig({
  test: {
    ...base.test,
    include: SLOW_SUITES,
    exclude: ['node_modules/**', 'dist/**'],
    // A test here starts servers and CLI runs as processes, several in a row: each start costs
    // seconds of CPU, many more when the machine is shared.
    testTimeout: 120_000,
  },
});
