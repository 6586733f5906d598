import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';
import { SLOW_SUITES } from './suites.js';

/** `npm run test:slow`: the process-level suites that `npm test` leaves out (./suites.ts). */
export default defineConfig({
  test: { ...base.test, include: SLOW_SUITES, exclude: ['node_modules/**', 'dist/**'] },
});
