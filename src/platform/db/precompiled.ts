import { type Compilable, CompiledQuery, type QueryResult } from 'kysely';
import type { Db } from './client.js';

/**
 * A Kysely query built and compiled once, then run with new values. Building and compiling a
 * query costs ~10 µs of CPU each time (an immutable operation tree, then SQL text), which is a
 * tenth of a small read's server CPU; queries on every request's path (the API key lookup, the
 * location, the offered services) are worth compiling once.
 *
 * `build` receives stand-ins for its arguments and must pass each on as a value (`where(col, '=',
 * arg)`, `sql\`... ${arg}\``). One worked on in JavaScript first (hashed, lower-cased, spread as an
 * `in` list) is not a parameter of the compiled query, and compiling refuses it.
 */
export function precompiled<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<QueryResult<Row>> {
  let compiled: { sql: string; slots: number[]; constants: readonly unknown[] } | undefined;
  return async (db, ...args) => {
    if (compiled === undefined) {
      const standIns = Array.from({ length: arity }, (_, index) => new StandIn(index));
      const query = build(db, ...(standIns as unknown as Args)).compile();
      const slots = query.parameters.map((value) => (value instanceof StandIn ? value.index : -1));
      for (const index of standIns.keys()) {
        if (!slots.includes(index)) throw new Error(`precompiled: argument ${index} is not a parameter`);
      }
      compiled = { sql: query.sql, slots, constants: query.parameters };
    }
    const { sql, slots, constants } = compiled;
    const parameters = slots.map((slot, position) => (slot === -1 ? constants[position] : args[slot]));
    return db.executeQuery<Row>(CompiledQuery.raw(sql, parameters));
  };
}

/** The value a precompiled query's builder sees in place of argument `index`. */
class StandIn {
  constructor(readonly index: number) {}
}
