import { GLOBAL_TABLES as PLACED } from '../../src/platform/db/citus-distribution.js';

/**
 * Tables that are global by design: they have no workspace_id, and each says why
 * (src/platform/db/citus-distribution.ts, which also says where Citus keeps them). Everything
 * else is a tenant table (test/scale/tenant-keys.test.ts, statement-scope.test.ts).
 */
export const GLOBAL_TABLES: Record<string, string> = Object.fromEntries(
  Object.entries(PLACED).map(([name, { reason }]) => [name, reason]),
);
