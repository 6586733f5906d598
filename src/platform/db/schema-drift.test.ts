import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import type { Database } from './client.js';
import { projectRoot } from './project-root.js';

/**
 * schema.ts (the Kysely types every query is checked against) and migrations/*.sql (what the
 * store really holds) are written by hand, side by side. This test fails when they drift: it
 * reads information_schema of a migrated store and the types Kysely derives from schema.ts
 * (Selectable and Insertable of each table, through the TypeScript compiler), and compares table
 * and column names, nullability, the type family of each column, and which columns an insert
 * may leave out.
 *
 * Why a test rather than generating schema.ts from the database (kysely-codegen): schema.ts
 * carries what SQL cannot say — literal unions for statuses and modes, the shapes of JSON
 * columns, string input for timestamps — which a generator would flatten to `string` and
 * `unknown`. The test keeps those refinements and still catches every mismatch a generator would.
 */

/** Tables the migrations make that no query goes through Kysely for. */
const NOT_IN_KYSELY = new Set(['schema_migrations']);

type Family = 'string' | 'number' | 'boolean' | 'Date' | 'json';

interface ColumnShape {
  family: Family;
  nullable: boolean;
  /** May an insert leave it out (it has a default or may be null)? */
  optionalOnInsert: boolean;
}

/** How the drivers hand each SQL type to us (pg and PGlite agree on these). */
const SQL_FAMILY: Record<string, Family> = {
  text: 'string',
  uuid: 'string',
  'character varying': 'string',
  tstzrange: 'string',
  // Local days (the reports' day sums): every read casts them to text, YYYY-MM-DD.
  date: 'string',
  integer: 'number',
  smallint: 'number',
  bigint: 'number',
  'double precision': 'number',
  real: 'number',
  boolean: 'boolean',
  'timestamp with time zone': 'Date',
  jsonb: 'json',
  json: 'json',
};

async function columnsInStore(database: Database): Promise<Map<string, Map<string, ColumnShape>>> {
  const rows = await database.session((query) =>
    query(
      `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, c.is_generated,
              c.is_identity
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        ORDER BY c.table_name, c.ordinal_position`,
    ),
  );
  const tables = new Map<string, Map<string, ColumnShape>>();
  for (const row of rows) {
    const table = String(row.table_name);
    if (NOT_IN_KYSELY.has(table)) continue;
    const family = SQL_FAMILY[String(row.data_type)];
    if (!family) throw new Error(`${table}.${row.column_name}: no family for SQL type ${row.data_type}`);
    const nullable = row.is_nullable === 'YES';
    const columns = tables.get(table) ?? new Map<string, ColumnShape>();
    columns.set(String(row.column_name), {
      family,
      nullable,
      // A generated or identity column is computed by the store: an insert leaves it out.
      optionalOnInsert:
        nullable || row.column_default !== null || row.is_generated === 'ALWAYS' || row.is_identity === 'YES',
    });
    tables.set(table, columns);
  }
  return tables;
}

/** Selectable<> and Insertable<> of every table of `DB`, resolved by the TypeScript checker. */
function columnsInSchemaTs(): Map<string, Map<string, ColumnShape>> {
  // A probe file that exists only in memory, beside schema.ts so that module resolution is the
  // project's own (written to disk it would make dist/ look stale to the process tests).
  const probe = path.join(projectRoot(), 'src', 'platform', 'db', '__schema_probe__.ts');
  const probeText = `import type { Insertable, Selectable } from 'kysely';
     import type { DB } from './schema.js';
     export declare const selected: { [K in keyof DB]: Selectable<DB[K]> };
     export declare const inserted: { [K in keyof DB]: Insertable<DB[K]> };\n`;
  const options: ts.CompilerOptions = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === probe || fileExists(file);
  host.readFile = (file) => (file === probe ? probeText : readFile(file));
  host.getSourceFile = (file, language, ...rest) =>
    file === probe ? ts.createSourceFile(file, probeText, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([probe], options, host);
  {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(probe)!;
    const declared = (name: string) => {
      const symbol = checker.getSymbolsInScope(source, ts.SymbolFlags.Variable).find((s) => s.name === name)!;
      return checker.getTypeOfSymbolAtLocation(symbol, source);
    };
    const selected = declared('selected');
    const inserted = declared('inserted');
    const tables = new Map<string, Map<string, ColumnShape>>();
    for (const table of checker.getPropertiesOfType(selected)) {
      const insertTable = checker.getTypeOfSymbolAtLocation(
        checker.getPropertyOfType(inserted, table.name)!,
        source,
      );
      const columns = new Map<string, ColumnShape>();
      for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(table, source))) {
        const type = checker.getTypeOfSymbolAtLocation(column, source);
        const members = type.isUnion() ? type.types : [type];
        const insertColumn = checker.getPropertyOfType(insertTable, column.name);
        columns.set(column.name, {
          family: familyOf(
            checker,
            members.filter((member) => !(member.flags & ts.TypeFlags.Null)),
            `${table.name}.${column.name}`,
          ),
          // `unknown` (any JSON) includes null.
          nullable: members.some((member) => member.flags & (ts.TypeFlags.Null | ts.TypeFlags.Unknown)),
          // A column Insertable leaves out (GeneratedAlways) cannot be required on insert.
          optionalOnInsert: !insertColumn || Boolean(insertColumn.flags & ts.SymbolFlags.Optional),
        });
      }
      tables.set(table.name, columns);
    }
    return tables;
  }
}

function familyOf(checker: ts.TypeChecker, members: ts.Type[], where: string): Family {
  const families = new Set<Family>();
  for (const member of members) {
    if (member.flags & ts.TypeFlags.StringLike) families.add('string');
    // bigint: an identity column PGlite may read as a bigint where pg reads a number.
    else if (member.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) families.add('number');
    else if (member.flags & ts.TypeFlags.BooleanLike) families.add('boolean');
    else if (member.getSymbol()?.name === 'Date') families.add('Date');
    // JSON columns are typed as their shape, or unknown where any JSON goes.
    else if (member.flags & (ts.TypeFlags.Object | ts.TypeFlags.Unknown)) families.add('json');
    else throw new Error(`${where}: cannot place ${checker.typeToString(member)}`);
  }
  if (families.size !== 1) throw new Error(`${where}: mixed types ${[...families].join(', ')}`);
  return [...families][0]!;
}

const describeColumns = (tables: Map<string, Map<string, ColumnShape>>) =>
  Object.fromEntries(
    [...tables].map(([table, columns]) => [
      table,
      Object.fromEntries(
        [...columns].map(([name, shape]) => [
          name,
          `${shape.family}${shape.nullable ? ' | null' : ''}${shape.optionalOnInsert ? ', optional on insert' : ''}`,
        ]),
      ),
    ]),
  );

describe('schema.ts against the migrated store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('has the same tables and columns, with the same nullability, types and defaults', async () => {
    const store = await columnsInStore(database);
    const kysely = columnsInSchemaTs();
    // Sanity: both sides were read (an empty reading would compare equal).
    expect(store.size).toBeGreaterThan(20);
    expect(store.get('bookings')?.get('start_time')).toEqual({
      family: 'Date',
      nullable: false,
      optionalOnInsert: false,
    });
    // Keys sorted, so a failure prints one readable diff of table.column: shape.
    const sorted = (tables: Map<string, Map<string, ColumnShape>>) =>
      new Map(
        [...tables]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([table, columns]) => [table, new Map([...columns].sort(([a], [b]) => a.localeCompare(b)))]),
      );
    expect(describeColumns(sorted(kysely))).toEqual(describeColumns(sorted(store)));
  });
});
