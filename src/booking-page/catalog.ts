import type { LocationRow } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { AvailabilityInvalidation } from '../slots/availability-invalidation.js';
import type { StafferRecord } from '../staffers/staffers.repository.js';
import { findWorkspaceBySlug, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { pageLocations, pageServices, pageStaffers, type ServiceGroup } from './booking-page.service.js';

/**
 * What the booking page lists before any slot (locations, services, staffers), read once per
 * availability version of the workspace. Every committed write of the workspace bumps that version
 * (the unit of work; the same stamp the slot caches use), on any process, so a page never shows
 * reference data older than the last write; two cheap queries per request replace about six.
 */
const MAX_ENTRIES = 5_000;
/** Per store (tests open several in one process), then per workspace. */
const stores = new WeakMap<Db, Map<string, { version: string; entries: Map<string, Promise<unknown>> }>>();

export interface Catalog {
  /** The workspace's availability version read at the start of this request. */
  version: string;
  workspace: WorkspaceRow;
  locations(): Promise<LocationRow[]>;
  services(locationId: string): Promise<ServiceGroup[]>;
  staffers(locationId: string, serviceId: string): Promise<StafferRecord[]>;
}

/** The catalog of the workspace a slug names, or undefined for an unknown slug. */
export async function openCatalog(
  db: Db,
  availability: AvailabilityInvalidation,
  slug: string,
): Promise<Catalog | undefined> {
  const workspace = await findWorkspaceBySlug(db, slug);
  if (!workspace) return undefined;
  const version = await availability.version(workspace.id);
  let perWorkspace = stores.get(db);
  if (!perWorkspace || perWorkspace.size > MAX_ENTRIES) {
    perWorkspace = new Map();
    stores.set(db, perWorkspace);
  }
  let store = perWorkspace.get(workspace.id);
  if (!store || store.version !== version || store.entries.size > MAX_ENTRIES) {
    store = { version, entries: new Map() };
    perWorkspace.set(workspace.id, store);
  }
  const { entries } = store;
  function memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    let entry = entries.get(key) as Promise<T> | undefined;
    if (!entry) {
      entry = load();
      // A failed read is not kept: the next request tries again.
      entry.catch(() => entries.delete(key));
      entries.set(key, entry);
    }
    return entry;
  }
  return {
    version,
    workspace,
    locations: () => memo('l', () => pageLocations(db, workspace)),
    services: (locationId) => memo(`s|${locationId}`, () => pageServices(db, workspace, locationId)),
    staffers: (locationId, serviceId) =>
      memo(`p|${locationId}|${serviceId}`, () => pageStaffers(db, workspace, locationId, serviceId)),
  };
}
