import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layout rules (docs/architecture.md) that a reviewer would otherwise have to remember:
 * the layers point downward (src/app/ mounts the surfaces on top; features; the panel kit and
 * platform/ below them), feature logic never imports a surface, the slot engine is pure (no
 * clock, env, database, or money), and all SQL lives in repositories; panel routes call
 * services; the outbox stands between the features that act on a change's events; and comments
 * say their rule instead of pointing outside the repository.
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

/** The repository-relative paths a file imports for their values: `import type` is left out. */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/import\s+(?!type\s)[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

/** `from -> to` for every import among `sources` (repository-relative paths) that `forbidden` matches. */
function importEdges(
  sources: string[],
  forbidden: (target: string, from: string) => boolean,
  imports: (file: string) => string[] = importsOf,
): string[] {
  return sources.flatMap((file) =>
    imports(file)
      .filter((target) => forbidden(target, relative(root, file)))
      .map((target) => `${relative(root, file)} -> ${target}`),
  );
}

/** The feature a path is in (`src/<feature>/...`), or undefined for src/app, platform, panel kit, cli, top-level files. */
const NOT_FEATURES = new Set(['app', 'platform', 'panel-kit', 'cli', 'outbox']);
function featureOf(path: string): string | undefined {
  const match = /^src\/([^/]+)\//.exec(path);
  return match && !NOT_FEATURES.has(match[1]!) ? match[1] : undefined;
}

/**
 * The keys of a request context (src/workspaces/request-context.ts) that only a surface's hook
 * knows: who acts and the base of absolute links. A route that writes either into an object
 * literal is assembling a context by hand; one that spreads the surface's context
 * (`{ ...context, db: uow.db, uow }`) names neither, and other arguments that share a field with
 * a context (`{ workspace, date, now }` for free times) name neither either.
 */
const CONTEXT_ONLY_KEYS = new Set(['actor', 'linkBase']);

/** `file:line` of each object literal in `text` that names a context-only key. */
function handBuiltContextsIn(text: string, fileName: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.some(
        (property) =>
          (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
          CONTEXT_ONLY_KEYS.has(property.name.getText(source)),
      )
    ) {
      found.push(`${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

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

/** The comments of a source file, each with its first line: trivia to the TypeScript parser. */
function commentsOf(text: string, fileName: string): { line: number; text: string }[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, { line: number; text: string }>();
  // Comments sit in the trivia before a token. JSX text has none (its `//` is text), and JSDoc
  // nodes lie inside a comment already found.
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    for (const child of children) visit(child);
    if (children.length > 0) return;
    if (node.kind === ts.SyntaxKind.JsxText || node.kind === ts.SyntaxKind.JsxTextAllWhiteSpaces) return;
    const ranges = [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.pos) ?? []),
    ];
    for (const range of ranges) {
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      found.set(range.pos, { line, text: text.slice(range.pos, range.end) });
    }
  };
  visit(source);
  return [...found.values()];
}

/**
 * What a comment may not point to: the issues and the documents beside the repository
 * (../shared/DESIGN.md, SPEC.md) are not in a clone, so a comment states the rule itself or names
 * a file inside the repository (docs/decisions/..., src/..., test/...). `#NN` counts after a
 * space or bracket only, so `&#39;` and a colour quoted as code (`#000000`) pass.
 */
const POINTER_PATTERNS: [RegExp, string][] = [
  [/\bissue(?:\s|\*|\/\/)+#?\d/gi, 'an issue number'],
  [/(?<=^|[\s([])#\d{2,}\b/gm, 'an issue number (#NN)'],
  [/\b(?:DESIGN|SPEC)\b/g, 'DESIGN or SPEC'],
  [/\.\.\/shared\b/g, 'a file beside the repository (../shared)'],
];

/** `file:line: what` for each pointer out of the repository in a comment of `text`. */
function pointersIn(text: string, fileName: string): string[] {
  // Parsing costs; a file whose text matches nothing has no comment that does.
  if (!POINTER_PATTERNS.some(([pattern]) => text.search(pattern) >= 0)) return [];
  return commentsOf(text, fileName).flatMap((comment) =>
    POINTER_PATTERNS.flatMap(([pattern, what]) =>
      [...comment.text.matchAll(pattern)].map((match) => {
        const line = comment.line + comment.text.slice(0, match.index).split('\n').length - 1;
        return `${fileName}:${line}: ${what}`;
      }),
    ),
  );
}

describe('layering', () => {
  it('finds the source files it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.includes('/slots/engine/'))).toBe(true);
  });

  it('keeps feature logic (services, repositories, rules) free of surface imports and the panel kit', () => {
    const logic = files.filter((f) => /\.(service|repository|rules)\.ts$/.test(f));
    expect(logic.length).toBeGreaterThan(20);
    const offenders = logic.flatMap((file) =>
      importsOf(file)
        .filter((target) => /^src\/(app|panel-kit)\/|\/(api|panel|widget|ical)\//.test(target))
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

  // The layers point downward: src/app/ (buildApp and the surface plugins that mount every
  // feature's routes) on top, the features below it, and the panel kit, platform/ and the
  // top-level errors and config below them. Tests may drive the whole app and the CLI from
  // anywhere, so these rules read production files.
  it('mounts the surfaces from src/app/ only: every surface plugin is there, only the entry point imports it', () => {
    const plugins = files.map((f) => relative(root, f)).filter((path) => /\.plugin\.tsx?$/.test(path));
    expect(plugins.length).toBeGreaterThanOrEqual(4);
    expect(plugins.filter((path) => !path.startsWith('src/app/'))).toEqual([]);
    const entryPoints = new Set(['src/main.ts']);
    expect(
      importEdges(
        files,
        (target, from) =>
          target.startsWith('src/app/') && !from.startsWith('src/app/') && !entryPoints.has(from),
      ),
    ).toEqual([]);
  });

  it('keeps the panel kit below the features: it imports no feature beyond who is signed in', () => {
    const allowed =
      /^src\/(panel-kit\/|platform\/|errors\.js$|config\.js$|users\/(roles|sessions\.service|users\.repository)\.js$|workspaces\/request-context\.js$)/;
    expect(importEdges(sourceFiles(join(src, 'panel-kit')), (target) => !allowed.test(target))).toEqual([]);
  });

  it('keeps platform/ free of features: it imports only itself and the top-level errors and config', () => {
    const allowed = /^src\/(platform\/|errors\.js$|config\.js$)/;
    expect(importEdges(sourceFiles(join(src, 'platform')), (target) => !allowed.test(target))).toEqual([]);
  });

  it('keeps src/cli/ on top: no feature imports it', () => {
    expect(
      importEdges(files, (target, from) => target.startsWith('src/cli/') && !from.startsWith('src/cli/')),
    ).toEqual([]);
  });

  it("keeps a feature's routes apart from other features' routes and pages", () => {
    const routes = files.filter((f) => /\.routes\.tsx?$/.test(f) && featureOf(relative(root, f)));
    expect(routes.length).toBeGreaterThan(30);
    const crossing = (target: string, from: string) =>
      /\.(routes|page)\.js$/.test(target) && featureOf(target) !== featureOf(from);
    expect(importEdges(routes, crossing)).toEqual([]);
  });

  // What mail, webhooks and calendar feeds share with the booking page lives with its owner
  // (bookings' manage link, calendar feeds' calendar files) or in platform/ (formats, languages).
  it('keeps shared helpers out of the booking page: only its mount imports booking-page/', () => {
    const outside = (target: string, from: string) =>
      target.startsWith('src/booking-page/') &&
      !from.startsWith('src/booking-page/') &&
      !from.startsWith('src/app/');
    expect(importEdges(sourceFiles(src, true), outside)).toEqual([]);
  });

  it('keeps panel routes on services: a panel route file calls no repository', () => {
    const routes = files.filter((f) => /^src\/[^/]+\/panel\/[^/]+\.routes\.tsx?$/.test(relative(root, f)));
    expect(routes.length).toBeGreaterThan(15);
    const offenders = importEdges(routes, (target) => /\.repository\.js$/.test(target), valueImportsOf);
    expect(offenders).toEqual([]);
  });

  // Each surface builds the request's context once, in a hook after its auth (src/app/api,
  // src/app/panel, src/app/widget); its routes read it (`request.context`, `panelContextOf`,
  // `widgetContextOf`) and add only the unit of work they write through.
  it('keeps contexts out of route files: no panel, API or booking page route builds one by hand', () => {
    const routes = files.filter((f) =>
      /^src\/[^/]+\/(panel|api|widget)\/[^/]+\.routes\.tsx?$/.test(relative(root, f)),
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const surface of ['panel', 'api', 'widget'])
      expect(routes.some((f) => relative(root, f).includes(`/${surface}/`))).toBe(true);
    const offenders = routes.flatMap((file) =>
      handBuiltContextsIn(readFileSync(file, 'utf8'), relative(root, file)),
    );
    expect(offenders).toEqual([]);
  });

  it('tells a hand-built context from a spread one, so the check above can fail', () => {
    const sample = [
      'const a = { db: deps.db, uow: deps.uow, workspace, actor: { type: "user", id }, now, linkBase: base };',
      'const b = { db: uow.db, uow, workspace, now: deps.clock.now(), linkBase: deps.linkBase() };',
      'const c = { workspace, actor, now, linkBase };',
      'const d = { ...context, db: uow.db, uow };',
      'const e = freeTimesOfBooking(db, { workspace, view, stafferId, date, now });',
      'const f = presentBooking(view, workspace, deps.linkBase());',
    ].join('\n');
    expect(handBuiltContextsIn(sample, 'sample.ts')).toEqual(['sample.ts:1', 'sample.ts:2', 'sample.ts:3']);
    // The surfaces' hooks, where contexts are built, hold such a literal.
    const hooks = ['app/api/api.plugin.ts', 'app/panel/panel.plugin.ts', 'app/widget/widget.plugin.ts'];
    for (const hook of hooks)
      expect(handBuiltContextsIn(readFileSync(join(src, hook), 'utf8'), hook).length).toBeGreaterThan(0);
  });

  it('sees the layers it checks, so the checks above can fail', () => {
    const features = files.filter((f) => featureOf(relative(root, f)));
    expect(importEdges(features, (target) => target.startsWith('src/panel-kit/')).length).toBeGreaterThan(20);
    expect(importEdges(files, (target) => target.startsWith('src/platform/')).length).toBeGreaterThan(50);
    expect(
      importEdges([join(src, 'app/panel/panel.plugin.ts')], (target) => /\.routes\.js$/.test(target)).length,
    ).toBeGreaterThan(15);
    expect(
      importEdges([join(src, 'cli/commands.ts')], (target) => featureOf(target) !== undefined).length,
    ).toBeGreaterThan(0);
    // `import type` names a shape, not a call: the repository rule reads value imports only.
    const services = join(src, 'services/panel/services.routes.ts');
    expect(importsOf(services).some((target) => target.endsWith('.repository.js'))).toBe(true);
    expect(valueImportsOf(services).some((target) => target.endsWith('.service.js'))).toBe(true);
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

  it('keeps comments in src self-contained: no issue numbers, no DESIGN, SPEC or ../shared', () => {
    const offenders = sourceFiles(src, true).flatMap((file) =>
      pointersIn(readFileSync(file, 'utf8'), relative(root, file)),
    );
    expect(offenders).toEqual([]);
  });

  it('reads comments only, so the check above can fail and strings never trip it', () => {
    const sample = [
      '// Scoped to one workspace (issue 17.2, DESIGN §8).',
      '/**',
      ' * The customer is found by phone (SPEC "Bookings" rule 2; ../shared/SPEC.md, #570, issue',
      ' * 15 point 7).',
      ' */',
      "const label = 'Report an issue 12 times: DESIGN, SPEC, ../shared, #570';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal.
      'const css = `color:#555; // issue 4 ${label} /* DESIGN */`;',
      "const status = { color: '#2196f3', escaped: '&#39;' }; // colour of `#000000` and `#2196f3`",
      'const page = <p> // issue 5 and DESIGN §3, as text {/* a comment: issue 6 */}</p>;',
    ].join('\n');
    expect(pointersIn(sample, 'sample.tsx')).toEqual([
      'sample.tsx:1: an issue number',
      'sample.tsx:1: DESIGN or SPEC',
      'sample.tsx:3: an issue number',
      'sample.tsx:3: an issue number (#NN)',
      'sample.tsx:3: DESIGN or SPEC',
      'sample.tsx:3: DESIGN or SPEC',
      'sample.tsx:3: a file beside the repository (../shared)',
      'sample.tsx:9: an issue number',
    ]);
    // The real sources: comments found where they are, colours in strings left alone.
    const calendarFile = join(src, 'calendar-feeds/calendar-file.ts');
    expect(
      commentsOf(readFileSync(calendarFile, 'utf8'), calendarFile).some((c) => c.text.includes('RFC 5545')),
    ).toBe(true);
    const mailRender = readFileSync(join(src, 'notifications/mail-render.ts'), 'utf8');
    expect(mailRender).toContain('color:#555');
    expect(pointersIn(mailRender.replace('color:#555', 'color: #555'), 'mail-render.ts')).toEqual([]);
  });
});
