import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, embeddedStartParams, openDatabase } from '../../src/platform/db/client.js';

/**
 * A fresh, migrated store for one test file, copied from what the global set-up migrated once
 * (test/helpers/global-setup.ts): in-memory PGlite restored from the migrated snapshot by default;
 * with TEST_DATABASE_URL, a database of its own made from the migrated template database and
 * dropped again on close.
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<Database> {
  // The Citus suite (scripts/test-citus.sh): one distributed database that every file shares,
  // each in workspaces of its own, as tenants share a cluster.
  const citusUrl = process.env.TEST_CITUS_URL;
  if (citusUrl) {
    // Files run one at a time there, and what earlier files left for the workers is theirs, not
    // this file's: their workers' heartbeats and leases (a worker killed mid-test keeps both
    // until they run out), their undispatched events, their unsent emails, deliveries and
    // calendar writes. Set it
    // all aside, as a store of the file's own would start without it.
    await adminQuery(
      citusUrl,
      `DELETE FROM delivery_workers;
       UPDATE worker_leases SET holder = NULL, lease_until = NULL WHERE holder IS NOT NULL;
       UPDATE outbox_events SET dispatched_at = now() WHERE dispatched_at IS NULL;
       UPDATE mail_messages SET state = 'dropped' WHERE state IN ('pending', 'sending');
       UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL WHERE state IN ('pending', 'sending');
       UPDATE calendar_writes SET done_at = now() WHERE done_at IS NULL`,
    );
    // Enough connections for the largest crowd a test sends at once (50 creates of one class):
    // on a cluster each transaction holds its connection longer, and requests left waiting for
    // one past the pool's 5 s would answer 503 instead of letting the database decide.
    return openDatabase({ databaseUrl: citusUrl, poolSize: options.poolSize ?? 60 });
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ pglite: await reusedPGlite() });
  const name = `${inject('postgresTemplate')}_${randomBytes(5).toString('hex')}`;
  await createDatabaseFrom(url, name, inject('postgresTemplate'));
  const database = await openDatabase({
    databaseUrl: databaseUrlOf(url, name),
    poolSize: options.poolSize ?? 20,
  });
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** `url` pointing at database `name` on the same server. */
export function databaseUrlOf(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

/**
 * CREATE DATABASE ... TEMPLATE copies the migrated template (WAL_LOG: block by block, no
 * checkpoint, so many files can copy at once). PostgreSQL refuses while any session is connected
 * to the template; the set-up waited for its own to leave, and this retries briefly should a
 * closing session still linger.
 */
async function createDatabaseFrom(url: string, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY WAL_LOG`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function adminQuery(url: string, text: string, params?: unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/**
 * PGlite stores of this worker process (vitest runs files one after another in a worker):
 * restoring the migrated snapshot costs ~0.5 s and ~0.7 s of CPU per store, ~60 s of CPU per run.
 * A store a file has closed is emptied instead (the tables it wrote truncated, the session reset)
 * and handed to the next file, unless that file changed the schema (a DDL test): then it is
 * closed and the next file restores a fresh one. Each file gets its own handle, dead once the
 * file closes it, so nothing a file left running can reach the next file's data.
 */
let spare: { pglite: PGlite; baseline: string } | undefined;

/** Tables whose rows the migrations made: kept, and worker_leases' rows set free again. */
const SEEDED_TABLES = new Set(['schema_migrations', 'worker_leases']);

/** What a file could have changed in the schema; any difference and the store is not reused. */
const CATALOG_SIGNATURE = `SELECT concat_ws(',',
  (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_attribute WHERE NOT attisdropped),
  (SELECT count(*) FROM pg_attribute WHERE attisdropped), (SELECT count(*) FROM pg_constraint),
  (SELECT count(*) FROM pg_index), (SELECT count(*) FROM pg_trigger), (SELECT count(*) FROM pg_proc),
  (SELECT count(*) FROM pg_namespace), (SELECT count(*) FROM pg_type), (SELECT count(*) FROM pg_extension),
  (SELECT count(*) FROM pg_roles), (SELECT string_agg(version, ',' ORDER BY version) FROM schema_migrations)
) AS signature`;

async function reusedPGlite(): Promise<PGlite> {
  let store = spare;
  spare = undefined;
  if (!store) {
    const pglite = await PGlite.create({
      loadDataDir: new Blob([await readFile(inject('pgliteSnapshot'))]),
      extensions: { btree_gist },
      // The server's settings (client.ts), so tests run the store as it runs in production.
      startParams: embeddedStartParams(),
    });
    store = { pglite, baseline: await signatureOf(pglite) };
  }
  const { pglite, baseline } = store;
  let open = true;
  // The file's handle: every use after its close throws, and its close empties the store for
  // the next file rather than ending it.
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'close') {
        return async () => {
          if (!open) return;
          open = false;
          await release(target, baseline);
        };
      }
      if (!open && property !== 'closed') throw new Error('this test store was closed');
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function signatureOf(pglite: PGlite): Promise<string> {
  return (await pglite.query<{ signature: string }>(CATALOG_SIGNATURE)).rows[0]!.signature;
}

async function release(pglite: PGlite, baseline: string): Promise<void> {
  try {
    if (spare || pglite.closed) throw new Error('not kept');
    // A transaction a failed test left open.
    if (
      (await pglite.query<{ open: boolean }>('SELECT now() <> statement_timestamp() AS open')).rows[0]!.open
    )
      await pglite.exec('ROLLBACK');
    if ((await signatureOf(pglite)) !== baseline) throw new Error('schema changed');
    const tables = (
      await pglite.query<{ name: string }>(
        `SELECT quote_ident(relname) AS name FROM pg_class
         WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace`,
      )
    ).rows
      .map((row) => row.name)
      .filter((name) => !SEEDED_TABLES.has(name));
    const written = (
      await pglite.query<{ name: string }>(
        tables
          .map((name) => `SELECT '${name}' AS name WHERE EXISTS (SELECT 1 FROM ${name})`)
          .join(' UNION ALL '),
      )
    ).rows.map((row) => row.name);
    await pglite.exec(`
      ${written.length > 0 ? `TRUNCATE ${written.join(', ')} RESTART IDENTITY CASCADE;` : ''}
      UPDATE worker_leases SET holder = NULL, lease_until = NULL WHERE holder IS NOT NULL;
      RESET ALL;
      UNLISTEN *;
      SELECT pg_advisory_unlock_all();
    `);
    spare = { pglite, baseline };
  } catch {
    if (!pglite.closed) await pglite.close();
  }
}
