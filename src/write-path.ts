import type { Db } from './platform/db/client.js';
import { UnitOfWork } from './platform/db/unit-of-work.js';
import {
  type AvailabilityInvalidation,
  DatabaseAvailabilityInvalidation,
} from './slots/availability-invalidation.js';

export interface WritePath {
  /** Every service write runs through it. */
  uow: UnitOfWork;
  /** What cached slot answers check before they serve. */
  availability: AvailabilityInvalidation;
}

/**
 * The one write path of a process (API, CLI, worker, tests alike): a unit of work whose commits
 * invalidate cached slot answers per workspace, in the database, so every process sees them.
 */
export function openWritePath(db: Db): WritePath {
  const availability = new DatabaseAvailabilityInvalidation(db);
  return { uow: new UnitOfWork(db, availability), availability };
}
