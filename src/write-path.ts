import type { InvalidationBus } from './platform/bus/invalidation-bus.js';
import type { Db } from './platform/db/client.js';
import { UnitOfWork } from './platform/db/unit-of-work.js';
import {
  type AvailabilityInvalidation,
  DatabaseAvailabilityInvalidation,
} from './slots/availability-invalidation.js';
import { BusAvailabilityInvalidation } from './slots/bus-invalidation.js';

export interface WritePath {
  /** Every service write runs through it. */
  uow: UnitOfWork;
  /** What cached slot answers check before they serve. */
  availability: AvailabilityInvalidation;
}

/**
 * The one write path of a process (API, CLI, worker, tests alike): a unit of work whose commits
 * invalidate cached slot answers per workspace on every process. With a bus (a server's default,
 * src/platform/bus/open-bus.ts) the versions cached answers check are pushed to each process;
 * without one they are read from the store on each check.
 */
export function openWritePath(db: Db, bus?: InvalidationBus, now?: () => number): WritePath {
  const availability = bus
    ? new BusAvailabilityInvalidation(db, bus, now)
    : new DatabaseAvailabilityInvalidation(db);
  return { uow: new UnitOfWork(db, availability), availability };
}
