import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Page tests drive Debian's Chromium; CI runs them on their own: `npx vitest run --config test/pages/vitest.config.ts`.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/pages/**/*.test.ts'],
    // The same migrated store copies as the main suites (test/helpers/test-db.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One browser at a time: two headless Chromiums at once on 2 cores fought over focus and the
    // clipboard (the panel's copy button), and each page test is quicker alone.
    fileParallelism: false,
  },
});
