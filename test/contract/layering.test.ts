import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout rules of DESIGN §6 that a reviewer would otherwise have to remember: feature logic
 * never imports a surface, and the slot engine is pure (no clock, env, database, or money).
 */

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The repository-relative paths a file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

const files = sourceFiles(src);

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
});
