import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout rules (docs/architecture.md) that a reviewer would otherwise have to remember: feature logic
 * never imports a surface, the slot engine is pure (no clock, env, database, or money), and all
 * SQL lives in repositories; the outbox stands between the features that act on
 * a change's events.
 */

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, withTests);
    return /\.tsx?$/.test(entry.name) && (withTests || !/\.test\.tsx?$/.test(entry.name)) ? [path] : [];
  });
}

/** The repository-relative paths a file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

const files = sourceFiles(src);

/** A folder's files, tests included, each with what it imports that `forbidden` matches. */
function importsMatching(folder: string, forbidden: (target: string) => boolean): string[] {
  return sourceFiles(join(src, folder), true).flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((target) => `${relative(root, file)} -> ${target}`),
  );
}

/** Kysely statement builders and raw SQL: what only a repository (or src/platform/db) may hold. */
const SQL_PATTERNS: [RegExp, string][] = [
  [/\.(selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom)\(/, 'a Kysely statement builder'],
  [/\bsql\s*(<[^`]*?>)?\s*`/, 'an sql`` template'],
  [/\bsql\.(raw|ref|lit|join|id|table|val)\(/, 'raw SQL (sql.raw, sql.ref...)'],
];

/**
 * Files outside repositories that may still hold SQL, each with the reason. Keep it short: an
 * entry goes when its SQL moves (a test below fails while an entry has nothing left to excuse).
 */
const SQL_ALLOWED: Record<string, string> = {
  // The legacy webhook bodies' reads; to move into a repository of their own.
  'src/webhooks/legacy-body.ts': 'to be moved into a repository',
};

function sqlIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return SQL_PATTERNS.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
}

describe('layering', () => {
  it('finds the source files it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.includes('/slots/engine/'))).toBe(true);
  });

  it('keeps feature logic (services, repositories, rules) free of surface imports', () => {
    const logic = files.filter((f) => /\.(service|repository|rules)\.ts$/.test(f));
    expect(logic.length).toBeGreaterThan(20);
    const offenders = logic.flatMap((file) =>
      importsOf(file)
        .filter((target) => /^src\/surfaces\/|\/(api|panel|widget)\//.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the slot engine pure: it imports only itself and the time library, reads no clock or env', () => {
    const engine = files.filter((f) => f.includes('/slots/engine/'));
    const offenders = engine.flatMap((file) => {
      const bad = importsOf(file).filter(
        (target) => !target.startsWith('src/slots/engine/') && !target.startsWith('src/platform/time/'),
      );
      const text = readFileSync(file, 'utf8');
      if (/Date\.now\(|new Date\(\)|process\.env|performance\.now\(/.test(text))
        bad.push('a clock or env read');
      if (/Intl\.NumberFormat|formatMoney/.test(text)) bad.push('money formatting');
      return bad.map((why) => `${relative(root, file)}: ${why}`);
    });
    expect(offenders).toEqual([]);
  });

  it('keeps SQL in repositories: no statement builder or sql`` outside *.repository.ts and src/platform/db', () => {
    const checked = files.filter(
      (f) => !/\.repository\.ts$/.test(f) && !relative(root, f).startsWith('src/platform/db/'),
    );
    expect(checked.length).toBeGreaterThan(100);
    const offenders = checked
      .filter((file) => !(relative(root, file) in SQL_ALLOWED))
      .flatMap((file) => sqlIn(file).map((what) => `${relative(root, file)}: ${what}`));
    expect(offenders).toEqual([]);
  });

  // The outbox dispatches every consequence of a change to handlers the process registers
  // (src/workers.ts): webhooks and emails each know the outbox, never each other, and the outbox
  // knows no feature (docs/architecture.md "Adding an event type").
  it('keeps webhooks and notifications apart: neither imports the other', () => {
    expect(importsMatching('webhooks', (target) => target.startsWith('src/notifications/'))).toEqual([]);
    expect(importsMatching('notifications', (target) => target.startsWith('src/webhooks/'))).toEqual([]);
  });

  it('keeps src/outbox free of features: it imports only itself, src/platform and test helpers', () => {
    const allowed = /^(src\/outbox\/|src\/platform\/|test\/helpers\/)/;
    expect(importsMatching('outbox', (target) => !allowed.test(target))).toEqual([]);
  });

  it('sees the imports it checks, so the two checks above can fail', () => {
    const toOutbox = (target: string) => target.startsWith('src/outbox/');
    expect(importsMatching('webhooks', toOutbox).length).toBeGreaterThan(0);
    expect(importsMatching('notifications', toOutbox).length).toBeGreaterThan(0);
    expect(importsMatching('outbox', (target) => target.startsWith('src/platform/')).length).toBeGreaterThan(
      0,
    );
  });

  it('finds SQL where it is, so the check above can fail', () => {
    const repositories = files.filter((f) => /\.repository\.ts$/.test(f));
    const withBuilders = repositories.filter((f) => sqlIn(f).includes('a Kysely statement builder'));
    const withTemplates = repositories.filter((f) => sqlIn(f).includes('an sql`` template'));
    expect(withBuilders.length).toBeGreaterThan(20);
    expect(withTemplates.length).toBeGreaterThan(5);
    // Each allowed file still holds SQL; an entry whose SQL moved must go from the list.
    const stale = Object.keys(SQL_ALLOWED).filter((path) => sqlIn(join(root, path)).length === 0);
    expect(stale).toEqual([]);
  });
});
