/**
 * Server-side prepared statements for the pg pool. Every parameterised statement is sent with a
 * name derived from its text, so each connection has PostgreSQL parse and plan it once and then
 * only binds and executes it. Kysely compiles one shape of query to one text (values travel as
 * parameters), so the same few dozen texts recur. Measured with pgbench replaying one booking
 * create: 320 tps unnamed, 565 tps prepared (docs/performance.md, 2026-11-22).
 *
 * Statements without parameters stay unnamed: they go out in the simple protocol, which is what
 * lets migrations and other raw SQL run several statements in one text.
 */
import pg from 'pg';
import { dbErrors } from '../metrics/registry.js';

// Why a bound: texts whose IN-lists vary in length are distinct statements; past this many, new
// texts run unnamed instead of growing every connection's plan cache without limit.
const MAX_NAMED_STATEMENTS = 2000;

const names = new Map<string, string>();

/** The statement name for `text`, or undefined once the bound is reached. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `k${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * pg.Client that names its parameterised statements; given to pg.Pool as its `Client`.
 *
 * It also listens to its own 'error' event. pg.Pool listens only while a client is idle; a client
 * checked out (inside a transaction, between two queries) whose connection drops emits 'error'
 * with no listener, and Node ends the process ("Unhandled 'error' event"). The error itself is not
 * lost: the query in progress fails with it, later ones fail as "not queryable", and the pool
 * discards the client when it is released. So the process survives a database outage.
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client's constructor options, passed on as given.
  constructor(config?: any) {
    super(config);
    this.on('error', () => dbErrors.inc({ kind: 'connection_lost' }));
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's connect() takes an optional callback.
  override connect(callback?: any): any {
    if (typeof callback === 'function') {
      return super.connect((error: Error | undefined) => {
        if (error) dbErrors.inc({ kind: 'connect_failed' });
        callback(error);
      });
    }
    return super.connect().catch((error: unknown) => {
      dbErrors.inc({ kind: 'connect_failed' });
      throw error;
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has many overloads; all are passed on.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      const name = statementName(config);
      if (name !== undefined) return super.query({ name, text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}
