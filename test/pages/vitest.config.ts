import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Page tests drive Debian's Chromium; CI runs them on their own: `npx vitest run --config test/pages/vitest.config.ts`.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/pages/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
