import type { RawQuery } from './client.js';

/**
 * Where each table lives on a Citus cluster (docs/operations/scale-out.md).
 *
 * Every table with a `workspace_id` column is a tenant table: distributed on it, all co-located,
 * so one workspace's rows sit on one node and its transactions stay there. The tables below have
 * no `workspace_id` by design; each says why, and whether Citus copies it to every node
 * (`reference`: joined or referenced by tenant tables) or keeps it on the coordinator (`local`:
 * never touched by a tenant request). A new table without `workspace_id` must be added here, or
 * distributing and migrating a distributed database refuse it.
 */
export const GLOBAL_TABLES: Record<string, { placement: 'reference' | 'local'; reason: string }> = {
  schema_migrations: {
    placement: 'local',
    reason: 'the migration ledger of the whole database; written only at start-up',
  },
  workspaces: {
    placement: 'reference',
    reason:
      'the tenant list itself: its id is every tenant row’s workspace_id; read by slug before the workspace is known',
  },
  worker_leases: {
    placement: 'local',
    reason:
      'which delivery worker holds which outbox partition (a partition spans many workspaces); never touched by a tenant request',
  },
  delivery_workers: {
    placement: 'local',
    reason: 'heartbeats of the delivery worker processes, used to share partitions fairly',
  },
  users: {
    placement: 'reference',
    reason:
      'people who sign in to the panel; a user may belong to several workspaces (memberships carry workspace_id)',
  },
  sessions: {
    placement: 'reference',
    reason:
      'a signed-in browser of a user, across the workspaces the user belongs to; the workspace it shows is shown_workspace_id',
  },
  password_reset_tokens: {
    placement: 'reference',
    reason: 'one-time links of a user, who may belong to several workspaces',
  },
};

/** What planning needs to know of one table of the public schema. */
export interface TableFacts {
  name: string;
  hasWorkspaceId: boolean;
  /** Tables its foreign keys point at (itself excluded). */
  parents: string[];
  /** Already a Citus table (reference or distributed). */
  placed: boolean;
}

export class DistributionError extends Error {
  readonly code = 'distribution_refused';
}

/**
 * The statements that place every table not yet placed, in an order Citus accepts: reference
 * tables first, then tenant tables each after the tables its foreign keys point at (Citus refuses
 * a foreign key to a table that is not distributed yet). The first tenant table anchors the
 * co-location group; every other joins the group of `anchor` when one is already distributed.
 * Pure: the same facts give the same statements (ties go alphabetically).
 */
export function planDistribution(tables: TableFacts[], anchor?: string): Placement[] {
  const unknown = tables.filter((t) => !t.hasWorkspaceId && !(t.name in GLOBAL_TABLES));
  if (unknown.length > 0) {
    throw new DistributionError(
      `Table ${unknown.map((t) => t.name).join(', ')} has no workspace_id and no placement: add it to GLOBAL_TABLES in src/platform/db/citus-distribution.ts (reference or local).`,
    );
  }
  const pending = tables.filter((t) => !t.placed);
  const reference = pending.filter(
    (t) => !t.hasWorkspaceId && GLOBAL_TABLES[t.name]!.placement === 'reference',
  );
  const tenant = pending.filter((t) => t.hasWorkspaceId);
  const placements: Placement[] = inParentOrder(reference).map((t) => ({ table: t.name, kind: 'reference' }));
  let group = anchor;
  for (const table of inParentOrder(tenant)) {
    placements.push({ table: table.name, kind: 'distributed', colocateWith: group ?? 'none' });
    group ??= table.name;
  }
  return placements;
}

export type Placement =
  | { table: string; kind: 'reference' }
  | { table: string; kind: 'distributed'; colocateWith: string };

/** The Citus call that makes one placement (names come from the catalog, not from users). */
export function statementOf(placement: Placement): string {
  return placement.kind === 'reference'
    ? `SELECT create_reference_table('${placement.table}')`
    : `SELECT create_distributed_table('${placement.table}', 'workspace_id', colocate_with => '${placement.colocateWith}')`;
}

/** Kahn's order over the foreign keys between the given tables; parents outside them are ignored. */
function inParentOrder(tables: TableFacts[]): TableFacts[] {
  const waiting = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableFacts[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting.values()]
      .filter((t) => t.parents.every((parent) => !waiting.has(parent)))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (ready.length === 0) {
      throw new DistributionError(`Foreign keys form a cycle between ${[...waiting.keys()].join(', ')}.`);
    }
    for (const t of ready) {
      ordered.push(t);
      waiting.delete(t.name);
    }
  }
  return ordered;
}

/** True when this database is a Citus coordinator whose schema has been distributed. */
export async function isDistributed(query: RawQuery): Promise<boolean> {
  const [row] = await query(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`);
  if (!row?.citus) return false;
  const [placed] = await query(`SELECT EXISTS (SELECT 1 FROM pg_dist_partition) AS placed`);
  return Boolean(placed?.placed);
}

/**
 * Inside the caller's transaction: places every table not placed yet and returns the statements
 * run. Sequential mode, because Citus refuses parallel DDL on a table after DDL on a reference
 * table in the same transaction, and a transaction may do both (distributing the whole schema;
 * a migration that alters `workspaces` and adds a tenant table).
 */
export async function distributePending(query: RawQuery): Promise<Placement[]> {
  await query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
  const placements = planDistribution(await readTableFacts(query), await anchorOf(query));
  for (const placement of placements) await query(statementOf(placement));
  return placements;
}

/**
 * Distributes a migrated database in one transaction: all of it or none of it. Refuses where
 * Citus is not installed. Tables that already hold rows (a database Kairos started once, which
 * seeds a demo workspace) have their rows moved into the shards.
 */
export async function distributeSchema(query: RawQuery): Promise<string[]> {
  const [row] = await query(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`);
  if (!row?.citus) {
    throw new DistributionError(
      'The citus extension is not installed in this database: run CREATE EXTENSION citus on the coordinator first.',
    );
  }
  await query('BEGIN');
  try {
    const placements = await distributePending(query);
    // Citus copies rows already there into the shards and leaves the originals in the
    // coordinator's table, unread from then on: free that space.
    for (const { table, kind } of placements) {
      if (kind === 'distributed')
        await query(`SELECT truncate_local_data_after_distributing_table('${table}')`);
    }
    await query('COMMIT');
    return [...placements.map(statementOf), ...(await registerCoordinator(query))];
  } catch (error) {
    await query('ROLLBACK');
    throw error;
  }
}

/**
 * Puts the coordinator in Citus's node list (without shards) when it is not there, and copies
 * the reference tables to it: the lookups every request makes (the workspace by slug, a panel
 * session) are then answered where they arrive instead of on a worker. After the tables are
 * placed, not before: with the coordinator listed, making `workspaces` a reference table would
 * turn every tenant table still local into a Citus-managed local table, which cannot then be
 * distributed. Its address is the one this command reached it at; over a Unix socket there is
 * none, and the operator is told to name it. Running the command again finishes what a failure
 * here left undone.
 */
async function registerCoordinator(query: RawQuery): Promise<string[]> {
  const [known] = await query(`SELECT EXISTS (SELECT 1 FROM pg_dist_node WHERE groupid = 0) AS known`);
  if (known?.known) {
    await query(`SELECT replicate_reference_tables('block_writes')`);
    return [];
  }
  const [self] = await query(`SELECT host(inet_server_addr()) AS host, inet_server_port() AS port`);
  if (!self?.host) {
    throw new DistributionError(
      "Connected over a Unix socket, so the coordinator's address is unknown: run SELECT citus_set_coordinator_host('<host>', <port>) on it, or connect over TCP.",
    );
  }
  const statements = [
    `SELECT citus_set_coordinator_host('${String(self.host)}', ${Number(self.port)})`,
    // Blocking writes to them meanwhile: logical replication needs wal_level = logical.
    `SELECT replicate_reference_tables('block_writes')`,
  ];
  for (const statement of statements) await query(statement);
  return statements;
}

async function readTableFacts(query: RawQuery): Promise<TableFacts[]> {
  const rows = await query(`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a
                    WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped) AS has_workspace_id,
           -- A Citus-managed local table is not placed: with the coordinator listed, Citus makes
           -- each new table with a foreign key to a reference table one, until it is distributed.
           -- Read from pg_dist_partition (hash-distributed: 'h'; reference: 'n' replicated 't'),
           -- not the citus_tables view: that view sizes every shard over other connections, which
           -- wait for the locks this migration's own DDL holds (an ALTER of users hung so).
           EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = c.oid
                    AND (d.partmethod = 'h' OR (d.partmethod = 'n' AND d.repmodel = 't'))) AS placed,
           COALESCE((SELECT array_agg(DISTINCT p.relname::text)
                       FROM pg_constraint k JOIN pg_class p ON p.oid = k.confrelid
                      WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid <> c.oid), '{}') AS parents
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`);
  return rows.map((row) => ({
    name: String(row.name),
    hasWorkspaceId: Boolean(row.has_workspace_id),
    placed: Boolean(row.placed),
    parents: row.parents as string[],
  }));
}

/** The co-location group new tenant tables join: that of `locations`, once distributed. */
async function anchorOf(query: RawQuery): Promise<string | undefined> {
  const rows = await query(
    `SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition
      WHERE partmethod = 'h' ORDER BY (logicalrelid::regclass::text = 'locations') DESC, colocationid LIMIT 1`,
  );
  return rows[0] ? String(rows[0].name) : undefined;
}
