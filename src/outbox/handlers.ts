import type { Tx } from '../platform/db/unit-of-work.js';
import { EVENT_TYPES, type EventType } from './event-types.js';
import type { OutboxEvent } from './outbox.repository.js';

/** One workspace's events for one handler, oldest first, in the transaction that dispatches them. */
export interface DispatchBatch {
  workspaceId: string;
  /** Only the handler's types, in the order they were written. */
  events: OutboxEvent[];
  now: number;
}

/**
 * What a feature does with the events of the types it registered for (webhook deliveries, emails,
 * and later text messages and calendar writes). `handle` runs inside the transaction that marks
 * the events dispatched: what it writes commits with that mark or not at all, so it happens
 * exactly once per event. It must write only through `tx` (no sends: those belong to the feature's
 * own leased queue, polled after the commit).
 */
export interface OutboxHandler {
  /** Names it in log lines and savepoints: lower case letters and underscores. */
  readonly name: string;
  /**
   * The event types it acts on; '*' for every event, a type this version does not list included
   * (one a newer version wrote during a rolling upgrade still reaches a webhook of "*").
   */
  readonly types: '*' | readonly EventType[];
  /**
   * What a fault of this handler does to the dispatch. 'retry': the whole dispatch rolls back,
   * nothing of any handler stays, and the next round tries the events again. 'skip': a fault that
   * would recur every round (a body it cannot read, a write the store always refuses) is logged,
   * and the events are dispatched without this handler's work (a savepoint drops what it wrote);
   * a store outage or a transient failure still rolls the whole dispatch back.
   */
  readonly onFault: 'retry' | 'skip';
  handle(tx: Tx, batch: DispatchBatch): Promise<void>;
}

/** Thrown at start-up for a list of handlers that cannot be dispatched to. */
export class HandlerRegistrationError extends Error {
  override readonly name = 'HandlerRegistrationError';
}

/** The handlers of a process, fixed at start-up: dispatch runs them in this order. */
export interface HandlerRegistry {
  readonly handlers: readonly OutboxHandler[];
  /** The handlers of one event type, in registration order. */
  handlersOf(type: string): readonly OutboxHandler[];
}

/**
 * The registry of `handlers`, built explicitly at start-up (src/workers.ts): nothing registers
 * itself on import, so a test or a process dispatches to exactly the handlers it names. Names must
 * be distinct (a savepoint and a log line name one) and types listed in event-types.ts.
 */
export function registerHandlers(handlers: readonly OutboxHandler[]): HandlerRegistry {
  const names = new Set<string>();
  for (const handler of handlers) {
    if (!/^[a-z][a-z_]*$/.test(handler.name))
      throw new HandlerRegistrationError(`handler name "${handler.name}": lower case letters and _ only`);
    if (names.has(handler.name))
      throw new HandlerRegistrationError(`two handlers are named "${handler.name}"`);
    names.add(handler.name);
    if (handler.types === '*') continue;
    const unknown = handler.types.filter((type) => !EVENT_TYPES.includes(type));
    if (unknown.length > 0)
      throw new HandlerRegistrationError(
        `handler "${handler.name}": unknown event types ${unknown.join(', ')}`,
      );
  }
  const list = Object.freeze([...handlers]);
  const wants = (handler: OutboxHandler, type: string) =>
    handler.types === '*' || (handler.types as readonly string[]).includes(type);
  const byType = new Map<string, readonly OutboxHandler[]>(
    EVENT_TYPES.map((type) => [type, list.filter((handler) => wants(handler, type))]),
  );
  const forAnyType = list.filter((handler) => handler.types === '*');
  return { handlers: list, handlersOf: (type) => byType.get(type) ?? forAnyType };
}
