import type { Db } from '../platform/db/client.js';
import type { VersionedInvalidation } from '../platform/db/unit-of-work.js';
import { bumpAvailabilityVersions, readAvailabilityVersion } from './availability-versions.repository.js';

/**
 * When cached slot answers of a workspace stop serving. A cached answer remembers the version it
 * was computed at and serves only while that is still the workspace's version; a unit of work
 * invalidates (moves the version on) after every committed write in the workspace.
 */
export type AvailabilityInvalidation = VersionedInvalidation;

/**
 * The version lives in the database, one row per workspace: every process sharing the database
 * sees a write of any other at once, and a write in one workspace leaves the others' answers
 * served. (A push bus — LISTEN/NOTIFY, Redis — can sit beside it behind this interface.)
 */
export class DatabaseAvailabilityInvalidation implements AvailabilityInvalidation {
  constructor(private readonly db: Db) {}

  version(workspaceId: string): Promise<string> {
    return readAvailabilityVersion(this.db, workspaceId);
  }

  invalidate(workspaceIds: readonly string[]): Promise<void> {
    return bumpAvailabilityVersions(this.db, workspaceIds);
  }
}
