import { LRUCache } from 'lru-cache';
import { FieldErrorBag, NOT_A_CHOICE, notFound, REQUIRED, ruleIssue } from '../errors.js';
import { liveLocationIds } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import type { AvailabilityInvalidation } from '../slots/availability-invalidation.js';
import {
  type Assignment,
  archiveStafferRow,
  findStaffer,
  insertStaffer,
  listOfferedPairs,
  listStaffers,
  listStaffersAtLocation,
  offeredPairs,
  pairKey,
  replaceStafferServices,
  type StafferRecord,
  type StafferValues,
  stafferAssignments,
  updateStafferRow,
} from './staffers.repository.js';
import type { StafferCreateBody, StafferUpdateBody } from './staffers.schemas.js';

/**
 * How many staffers each location lists, per availability version: every committed write of the
 * workspace moves the version on (the unit of work), so a count serves only while nothing was
 * written, and the version is read before the count, so a count never outlives a write it missed.
 */
const totals = new LRUCache<string, number>({ max: 10_000 });

export async function listLocationStaffers(
  db: Db,
  availability: AvailabilityInvalidation,
  workspaceId: string,
  locationId: string,
  page: Page,
) {
  const key = `${workspaceId}|${locationId}|${await availability.version(workspaceId)}`;
  const known = totals.get(key);
  const listed = await listStaffersAtLocation(db, workspaceId, locationId, page, known);
  if (known === undefined) totals.set(key, listed.total);
  return listed;
}

export async function getStaffer(db: Db, workspaceId: string, stafferId: string): Promise<StafferRecord> {
  const staffer = await findStaffer(db, workspaceId, stafferId);
  if (!staffer) throw notFound('Staffer');
  return staffer;
}

/** The live services of many staffers per location, in one read (an import compares rows with them). */
export function assignmentsOfStaffers(db: Db, workspaceId: string, stafferIds: string[]) {
  return stafferAssignments(db, workspaceId, stafferIds);
}

export async function createStaffer(
  uow: UnitOfWork,
  workspaceId: string,
  body: StafferCreateBody,
): Promise<StafferRecord> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    const assignments = await checkAssignments(tx, workspaceId, body.services ?? [], errors);
    errors.throwIfAny();
    const stafferId = await insertStaffer(tx, workspaceId, { ...values, first_name: values.first_name! });
    await replaceStafferServices(tx, workspaceId, stafferId, assignments);
    return getStaffer(tx, workspaceId, stafferId);
  });
}

export async function updateStaffer(
  uow: UnitOfWork,
  workspaceId: string,
  stafferId: string,
  body: StafferUpdateBody,
): Promise<StafferRecord> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    // 404 before 422: a request about a staffer that is not there has nothing to validate.
    await getStaffer(tx, workspaceId, stafferId);
    const assignments =
      body.services === undefined
        ? undefined
        : await checkAssignments(tx, workspaceId, body.services, errors);
    errors.throwIfAny();
    if (!(await updateStafferRow(tx, workspaceId, stafferId, values))) throw notFound('Staffer');
    if (assignments !== undefined) await replaceStafferServices(tx, workspaceId, stafferId, assignments);
    return getStaffer(tx, workspaceId, stafferId);
  });
}

export async function archiveStaffer(uow: UnitOfWork, workspaceId: string, stafferId: string): Promise<void> {
  const archived = await uow.run(workspaceId, (tx) => archiveStafferRow(tx, workspaceId, stafferId));
  if (!archived) throw notFound('Staffer');
}

function scalarValues(body: StafferUpdateBody, errors: FieldErrorBag): StafferValues {
  const values: StafferValues = {};
  if (body.first_name !== undefined) {
    if (body.first_name.trim() === '')
      errors.add('first_name', 'The first_name field is required.', REQUIRED);
    values.first_name = body.first_name.trim();
  }
  if (body.last_name !== undefined) values.last_name = body.last_name.trim();
  if (body.position !== undefined) values.position = body.position.trim();
  if (body.description !== undefined) values.description = body.description;
  if (body.avatar !== undefined) values.avatar = body.avatar;
  return values;
}

/**
 * Each `services.N.location_uuid` must be a live location of this workspace, and each
 * `services.N.service_uuids.M` a live service offered there. Entries for the same location merge.
 */
async function checkAssignments(
  tx: Db,
  workspaceId: string,
  entries: NonNullable<StafferCreateBody['services']>,
  errors: FieldErrorBag,
): Promise<Assignment[]> {
  const normalized = entries.map((entry) => ({
    locationId: entry.location_uuid.toLowerCase(),
    serviceIds: entry.service_uuids.map((uuid) => uuid.toLowerCase()),
  }));
  const locationIds = [...new Set(normalized.map((entry) => entry.locationId))];
  const serviceIds = [...new Set(normalized.flatMap((entry) => entry.serviceIds))];
  const liveLocations = await liveLocationIds(tx, workspaceId, locationIds);
  const offered = await offeredPairs(tx, workspaceId, [...liveLocations], serviceIds);
  const merged = new Map<string, Set<string>>();
  normalized.forEach((entry, index) => {
    if (!liveLocations.has(entry.locationId)) {
      // Its services cannot be offered at a location that is not there: one error says it.
      errors.add(`services.${index}.location_uuid`, 'The selected location is invalid.', NOT_A_CHOICE);
      return;
    }
    const services = merged.get(entry.locationId) ?? new Set<string>();
    entry.serviceIds.forEach((serviceId, serviceIndex) => {
      if (offered.has(pairKey(entry.locationId, serviceId))) services.add(serviceId);
      else {
        errors.add(
          `services.${index}.service_uuids.${serviceIndex}`,
          'The selected service is invalid or not offered at this location.',
          ruleIssue('service_not_offered'),
        );
      }
    });
    merged.set(entry.locationId, services);
  });
  return [...merged].map(([locationId, services]) => ({ locationId, serviceIds: [...services] }));
}

/** One page of the workspace's live staffers, with their total. */
export function listStaffersPage(db: Db, workspaceId: string, page: Page) {
  return listStaffers(db, workspaceId, page);
}

/** Which service each live location offers (the staff form's services matrix). */
export function listOfferedServicePairs(db: Db, workspaceId: string) {
  return listOfferedPairs(db, workspaceId);
}

/**
 * One page of the live staffers of a location, with their total, counted afresh (the booking
 * forms' pickers, read once per page view).
 */
export function listLocationStaffersPage(db: Db, workspaceId: string, locationId: string, page: Page) {
  return listStaffersAtLocation(db, workspaceId, locationId, page);
}
