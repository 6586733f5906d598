import { FieldErrorBag, invalidField, NOT_A_CHOICE, notFound, REQUIRED, ruleIssue } from '../errors.js';
import { liveLocationIds } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import { checkRequirements } from '../resources/resources.service.js';
import { listCategories } from './service-categories.repository.js';
import {
  archiveServiceRow,
  findService,
  insertService,
  listAllServices,
  listServicesAtLocation,
  replaceServiceLocations,
  type ServiceRecord,
  type ServiceValues,
  updateServiceRow,
  upsertCategory,
} from './services.repository.js';
import type { ServiceCreateBody, ServiceUpdateBody } from './services.schemas.js';

export async function getService(db: Db, workspaceId: string, serviceId: string): Promise<ServiceRecord> {
  const service = await findService(db, workspaceId, serviceId);
  if (!service) throw notFound('Service');
  return service;
}

export async function createService(
  uow: UnitOfWork,
  workspaceId: string,
  body: ServiceCreateBody,
): Promise<ServiceRecord> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    const locationIds = await checkLocations(tx, workspaceId, body.location_uuids ?? [], errors);
    errors.throwIfAny();
    const requirements =
      body.resources === undefined
        ? []
        : await checkRequirements(tx, workspaceId, body.resources, 'resources');
    if (body.resources !== undefined) values.resource_requirements = JSON.stringify(requirements);
    checkRental(
      {
        stafferNeeded: body.staffer_needed ?? true,
        needs: requirements.length,
        capacity: body.capacity ?? 1,
      },
      body,
    );
    const categoryId = await categoryIdOf(tx, workspaceId, body.category);
    const serviceId = await insertService(tx, workspaceId, {
      ...values,
      name: values.name!,
      duration_minutes: body.duration_minutes,
      ...(categoryId !== undefined ? { category_id: categoryId } : {}),
    });
    await replaceServiceLocations(tx, workspaceId, serviceId, locationIds);
    return getService(tx, workspaceId, serviceId);
  });
}

export async function updateService(
  uow: UnitOfWork,
  workspaceId: string,
  serviceId: string,
  body: ServiceUpdateBody,
): Promise<ServiceRecord> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    // 404 before 422: a request about a service that is not there has nothing to validate.
    const current = await getService(tx, workspaceId, serviceId);
    const locationIds =
      body.location_uuids === undefined
        ? undefined
        : await checkLocations(tx, workspaceId, body.location_uuids, errors);
    errors.throwIfAny();
    const requirements =
      body.resources === undefined
        ? (current.resource_requirements ?? [])
        : await checkRequirements(tx, workspaceId, body.resources, 'resources');
    if (body.resources !== undefined) values.resource_requirements = JSON.stringify(requirements);
    checkRental(
      {
        stafferNeeded: body.staffer_needed ?? current.staffer_needed,
        needs: requirements.length,
        capacity: body.capacity ?? current.capacity,
      },
      body,
    );
    const categoryId = await categoryIdOf(tx, workspaceId, body.category);
    if (categoryId !== undefined) values.category_id = categoryId;
    if (!(await updateServiceRow(tx, workspaceId, serviceId, values))) throw notFound('Service');
    if (locationIds !== undefined) await replaceServiceLocations(tx, workspaceId, serviceId, locationIds);
    return getService(tx, workspaceId, serviceId);
  });
}

export async function archiveService(uow: UnitOfWork, workspaceId: string, serviceId: string): Promise<void> {
  const archived = await uow.run(workspaceId, (tx) => archiveServiceRow(tx, workspaceId, serviceId));
  if (!archived) throw notFound('Service');
}

/** The plain columns of the body (only the keys given), with the checks a schema cannot make. */
function scalarValues(body: ServiceUpdateBody, errors: FieldErrorBag): ServiceValues {
  const values: ServiceValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.', REQUIRED);
    values.name = body.name.trim();
  }
  if (body.description !== undefined) values.description = body.description;
  if (body.price !== undefined) values.price = body.price;
  if (body.duration_minutes !== undefined) values.duration_minutes = body.duration_minutes;
  if (body.capacity !== undefined) values.capacity = body.capacity;
  if (body.buffer_before_minutes !== undefined) values.buffer_before_minutes = body.buffer_before_minutes;
  if (body.buffer_after_minutes !== undefined) values.buffer_after_minutes = body.buffer_after_minutes;
  if (body.series_bookable !== undefined) values.series_bookable = body.series_bookable;
  if (body.staffer_needed !== undefined) values.staffer_needed = body.staffer_needed;
  return values;
}

/**
 * A service needing no staffer (a rental, docs/resources.md "Rentals") is booked by its units
 * alone, so it needs at least one, and each booking is a session of its own, so it seats one
 * booking. The field named is the one this request changed: turning the staffer off names
 * `staffer_needed`; removing the last need of a rental names `resources`.
 */
function checkRental(
  after: { stafferNeeded: boolean; needs: number; capacity: number },
  body: ServiceUpdateBody,
): void {
  if (after.stafferNeeded) return;
  if (after.needs === 0) {
    if (body.staffer_needed === false || body.resources === undefined)
      throw invalidField(
        'staffer_needed',
        'A service may need no staffer only when it needs at least one resource.',
        ruleIssue('rental_needs_resource'),
      );
    throw invalidField(
      'resources',
      'A service that needs no staffer must need at least one resource.',
      ruleIssue('rental_needs_resource'),
    );
  }
  if (after.capacity !== 1)
    throw invalidField(
      'capacity',
      'A service that needs no staffer takes one booking per session: its capacity must be 1.',
      ruleIssue('rental_capacity_one'),
    );
}

/** Distinct live location ids, in the order given; every other entry is a `location_uuids.N` error. */
async function checkLocations(
  tx: Db,
  workspaceId: string,
  uuids: string[],
  errors: FieldErrorBag,
): Promise<string[]> {
  const wanted = uuids.map((uuid) => uuid.toLowerCase());
  const live = await liveLocationIds(tx, workspaceId, wanted);
  wanted.forEach((uuid, index) => {
    if (!live.has(uuid))
      errors.add(`location_uuids.${index}`, 'The selected location is invalid.', NOT_A_CHOICE);
  });
  return [...new Set(wanted)];
}

/**
 * undefined = leave the category as it is; null = none. An empty name counts as none because
 * a form-encoded body has no other way to say null.
 */
async function categoryIdOf(
  tx: Db,
  workspaceId: string,
  category: string | null | undefined,
): Promise<string | null | undefined> {
  if (category === undefined) return undefined;
  const name = category?.trim() ?? '';
  return name === '' ? null : upsertCategory(tx, workspaceId, name);
}

/** The workspace's service categories in their order (the service form's picker). */
export function listServiceCategories(db: Db, workspaceId: string) {
  return listCategories(db, workspaceId);
}

/** Every service of the workspace with its category, archived ones too (the panel's list). */
export function listServicesWithArchived(db: Db, workspaceId: string) {
  return listAllServices(db, workspaceId);
}

/** One page of the live services a location offers, with their total (the booking forms' pickers). */
export function listLocationServicesPage(db: Db, workspaceId: string, locationId: string, page: Page) {
  return listServicesAtLocation(db, workspaceId, locationId, page);
}
