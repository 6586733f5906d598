import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SLOW_SUITES } from './test/slow/suites.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    // test/citus runs on a Citus cluster (npm run test:citus), the process-level suites in
    // npm run test:slow, the browser's in test/pages.
    exclude: ['test/pages/**', 'test/citus/**', ...SLOW_SUITES, 'node_modules/**', 'dist/**'],
    // Migrates once and hands each file a copy of the result (test/helpers/test-db.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default in a run is one fewer than the cores: a single worker on a 2-core machine,
    // which leaves a core idle whenever a file waits on a child process or a socket.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker keeps its imported modules from one file to the next (Fastify, Kysely, PGlite and
    // our sources took ~1.3 s to import per file). Safe here: each file opens its own store and
    // app, nothing mocks modules or changes process.env, and module-level maps are pure caches.
    isolate: false,
  },
});
