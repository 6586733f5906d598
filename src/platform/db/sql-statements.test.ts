import { describe, expect, it } from 'vitest';
import { loadMigrations } from './migrate.js';
import { splitStatements } from './sql-statements.js';

describe('splitStatements', () => {
  it.each([
    ['SELECT 1; SELECT 2;', ['SELECT 1', 'SELECT 2']],
    ['SELECT 1', ['SELECT 1']],
    ["SELECT 'a;b'; SELECT 'it''s;'", ["SELECT 'a;b'", "SELECT 'it''s;'"]],
    ['SELECT "odd;name" FROM t; SELECT 2', ['SELECT "odd;name" FROM t', 'SELECT 2']],
    [
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql; SELECT f()',
      ['CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql', 'SELECT f()'],
    ],
    [
      'DO $body$ BEGIN PERFORM 1; END $body$; SELECT 2',
      ['DO $body$ BEGIN PERFORM 1; END $body$', 'SELECT 2'],
    ],
    [
      '-- a; comment\nSELECT 1; /* b; */ SELECT 2;\n-- trailing; only\n',
      ['-- a; comment\nSELECT 1', '/* b; */ SELECT 2'],
    ],
    ['SELECT $1::int; SELECT 2', ['SELECT $1::int', 'SELECT 2']],
  ])('%j', (text, statements) => {
    expect(splitStatements(text)).toEqual(statements);
  });

  it('splits every migration into statements that rejoin to the same SQL, comments aside', () => {
    const strip = (text: string) =>
      text
        .replace(/--[^\n]*/g, '')
        .replace(/\s+/g, ' ')
        .replace(/\s*;\s*/g, ';')
        .trim()
        .replace(/;$/, '');
    for (const migration of loadMigrations()) {
      const statements = splitStatements(migration.sql);
      expect(statements.length, migration.version).toBeGreaterThan(0);
      expect(strip(statements.join(';\n')), migration.version).toBe(strip(migration.sql));
    }
  });
});
