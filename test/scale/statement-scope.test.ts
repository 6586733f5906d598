import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadMigrations } from '../../src/platform/db/migrate.js';
import { type RecordedStatement, recordStatements } from '../../src/platform/db/statement-recorder.js';
import { GLOBAL_TABLES } from './global-tables.js';

/**
 * Every statement a tenant request sends filters or writes with
 * `workspace_id = $n` (a bound parameter), so on Citus it runs on the one node of its workspace,
 * and none is a data-modifying CTE (those are pulled to the coordinator).
 *
 * The statements are those of the e2e suite: its test files are imported below and run here as
 * they are, with the recorder on — in this process (API calls through the in-process app) and in
 * the built server a file starts (through KAIROS_STATEMENT_LOG). Statements outside a tenant
 * request (start-up, migrations, the demo seed, the delivery worker) are not checked.
 */

/**
 * Statements known to break the rule, each with why and who removes it. Empty this list as they
 * are fixed: an entry that no longer matches any statement fails the test, so none outlives its
 * cause.
 */
// Statements allowed to break the rules, each with its reason; empty since the unit of work
// replaced the create's data-modifying CTE and the global availability counter.
const KNOWN_EXCEPTIONS: { name: string; matches: (statement: string) => boolean; why: string }[] = [];

// The imported files' set-up (a server start, an app build) shares this file's hook timeout.
vi.setConfig({ hookTimeout: 300_000 });

const logDir = mkdtempSync(path.join(tmpdir(), 'kairos-statements-'));
const logFile = path.join(logDir, 'server.jsonl');
writeFileSync(logFile, '');
// Read by the servers the e2e files start (they inherit this environment).
process.env.KAIROS_STATEMENT_LOG = logFile;
const inProcess: RecordedStatement[] = [];
const stopRecording = recordStatements((statement) => {
  if (statement.request) inProcess.push(statement);
});

afterAll(() => {
  stopRecording();
  delete process.env.KAIROS_STATEMENT_LOG;
  rmSync(logDir, { recursive: true, force: true });
});

// A query suffix makes these fresh module instances: the run keeps modules between files
// (vitest.config.ts isolate: false), and an e2e file imported earlier would not register again.
const freshImport = (file: string) => import(`${file}?statement-scope`);
await freshImport('../e2e/spec-sequence.test.js');
await freshImport('../e2e/booking-webhooks.test.js');

const WORKSPACE_EQUALS_PARAM = /"?workspace_id"?\s*=\s*\$\d+/i;
const DATA_MODIFYING = /\b(insert\s+into|update\s+"?\w+"?(\s+as\s+\w+)?\s+set|delete\s+from)\b/i;

/** Why a statement breaks the rule, or undefined. */
function problemOf(statement: string, tenantTables: Set<string>): string | undefined {
  if (/^\s*with\b/i.test(statement) && DATA_MODIFYING.test(statement)) return 'is a data-modifying CTE';
  if (/\bnextval\s*\(/i.test(statement)) return 'uses a global sequence';
  const tables = [...statement.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?/gi)]
    .map((match) => match[1]!.toLowerCase())
    .filter((table) => tenantTables.has(table));
  if (tables.length === 0) return undefined;
  if (WORKSPACE_EQUALS_PARAM.test(statement)) return undefined;
  // An insert writes workspace_id as a bound parameter in its column list.
  const insert = /^\s*insert\s+into\s+"?\w+"?\s*\(([^)]*)\)\s*values\s*\(\s*\$\d+/i.exec(statement);
  if (insert && /^\s*"?workspace_id"?\s*,/.test(insert[1]!)) return undefined;
  return `touches ${[...new Set(tables)].join(', ')} without workspace_id = $n`;
}

describe('statements of tenant requests (issue 17.2)', () => {
  it('the rule itself catches what it must', () => {
    const tenant = new Set(['bookings', 'customers']);
    expect(
      problemOf('select * from "bookings" where "workspace_id" = $1 and "id" = $2', tenant),
    ).toBeUndefined();
    expect(problemOf('select * from "bookings" where "id" = $1', tenant)).toMatch(/bookings/);
    expect(problemOf("select * from bookings where workspace_id = 'x'", tenant)).toMatch(/without/);
    expect(
      problemOf('insert into "customers" ("workspace_id", "phone") values ($1, $2)', tenant),
    ).toBeUndefined();
    expect(
      problemOf(
        'with b as (insert into "bookings" ("workspace_id") values ($1) returning *) select * from b',
        tenant,
      ),
    ).toBe('is a data-modifying CTE');
    expect(problemOf('select * from "workspaces" where "slug" = $1', tenant)).toBeUndefined();
  });

  it('every statement of a tenant request is scoped by workspace_id = $n and is no data-modifying CTE', async () => {
    // Every table the migrations create (tenant-keys.test.ts checks them in the catalog).
    const tableNames = loadMigrations().flatMap((migration) =>
      [...migration.sql.matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?"?([a-z_][a-z0-9_]*)"?/gi)].map(
        (match) => match[1]!.toLowerCase(),
      ),
    );
    expect(tableNames).toContain('bookings');
    const tenantTables = new Set(tableNames.filter((name) => !(name in GLOBAL_TABLES)));

    const fromServer = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as RecordedStatement)
      .filter((statement) => statement.request);
    const statements = [...inProcess, ...fromServer];
    // Both sources were heard: the server's log and this process's API calls.
    expect(fromServer.length, 'statements from the e2e server process').toBeGreaterThan(50);
    expect(inProcess.length, 'statements from in-process API calls').toBeGreaterThan(50);

    const used = new Set<string>();
    const failures = new Map<string, string>();
    for (const statement of statements) {
      const problem = problemOf(statement.sql, tenantTables);
      if (!problem) continue;
      const exception = KNOWN_EXCEPTIONS.find((known) => known.matches(statement.sql));
      if (exception) {
        used.add(exception.name);
        continue;
      }
      const text = statement.sql.replace(/\s+/g, ' ').slice(0, 300);
      failures.set(text, `${problem} (${statement.request}): ${text}`);
    }
    expect([...failures.values()], 'statements of tenant requests not scoped to one workspace').toEqual([]);
    const stale = KNOWN_EXCEPTIONS.filter((known) => !used.has(known.name)).map(
      (known) => `KNOWN_EXCEPTIONS "${known.name}" matched nothing: remove it (${known.why})`,
    );
    expect(stale).toEqual([]);
  }, 120_000);
});
