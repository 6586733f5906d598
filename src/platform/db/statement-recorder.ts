import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import type { LogEvent } from 'kysely';

/**
 * Records the SQL statements the app sends, tagged with the tenant request that sent them, so a
 * test can check that every statement of a tenant request is scoped to one workspace (what a
 * distributed database needs). Off unless something listens: then it costs one Set lookup per statement.
 *
 * Listeners: `recordStatements(sink)` in this process, or `KAIROS_STATEMENT_LOG=<file>` in the
 * environment of a server process (each statement appended to the file as one JSON line), for
 * tests that drive a built server over a socket.
 */
export interface RecordedStatement {
  sql: string;
  parameters: readonly unknown[];
  /** `METHOD /url` of the tenant request that sent it; undefined outside any (start-up, worker). */
  request: string | undefined;
}

type Sink = (statement: RecordedStatement) => void;

const sinks = new Set<Sink>();
const requestScope = new AsyncLocalStorage<string>();
const logFile = process.env.KAIROS_STATEMENT_LOG || undefined;
if (logFile) {
  sinks.add((statement) => appendFileSync(logFile, `${JSON.stringify(statement)}\n`));
}

/** Starts sending every statement to `sink`; the returned function stops it. */
export function recordStatements(sink: Sink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** Kysely's `log` option: hands each executed statement (failed ones too) to the sinks. */
export function statementLog(event: LogEvent): void {
  if (sinks.size === 0) return;
  const statement: RecordedStatement = {
    sql: event.query.sql,
    parameters: event.query.parameters,
    request: requestScope.getStore(),
  };
  for (const sink of sinks) sink(statement);
}

/**
 * A Fastify onRequest hook for a tenant surface: what the request does from here on (its other
 * hooks, its handler, the promises they start) runs inside its tag.
 */
export function tagTenantRequest(
  request: { method: string; url: string },
  _reply: unknown,
  done: () => void,
): void {
  if (sinks.size === 0) {
    done();
    return;
  }
  requestScope.run(`${request.method} ${request.url}`, done);
}
