import {
  AppError,
  FieldErrorBag,
  invalidField,
  NOT_A_CHOICE,
  notFound,
  REQUIRED,
  ruleIssue,
} from '../errors.js';
import { liveLocationIds } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import {
  archiveResourceRow,
  findResource,
  insertResource,
  listAllResources,
  listResourcesAtLocation,
  liveResources,
  type ResourceRow,
  type ResourceValues,
  servicesNamingResource,
  updateResourceRow,
} from './resources.repository.js';
import type { ResourceCreateBody, ResourceRequirementBody, ResourceUpdateBody } from './resources.schemas.js';

/**
 * Resources (docs/resources.md): the units of a location a service can need. Every write goes
 * through a unit of work, so the workspace's cached time-slot answers are dropped when it commits.
 */
/**
 * A unit that services need by name cannot be archived, nor change its type: those services
 * would never be offered again, with nothing to say why. `services` names them, so the panel can
 * say which to change first, in its reader's language.
 */
export class ResourceNamedByServices extends AppError {
  constructor(
    readonly services: string[],
    readonly change: 'archive' | 'type',
  ) {
    const names = services.join(', ');
    super(
      change === 'archive' ? 409 : 422,
      change === 'archive' ? 'resource_in_use' : 'validation_failed',
      change === 'archive'
        ? `The resource is needed by name by ${names}: change those services first.`
        : `The type cannot change while ${names} need this resource by name.`,
      change === 'type'
        ? { type: [`The type cannot change while ${names} need this resource by name.`] }
        : undefined,
      undefined,
      undefined,
      { services: names },
    );
  }
}

export async function getResource(db: Db, workspaceId: string, resourceId: string): Promise<ResourceRow> {
  const resource = await findResource(db, workspaceId, resourceId);
  if (!resource) throw notFound('Resource');
  return resource;
}

export function listLocationResources(db: Db, workspaceId: string, locationId: string, page: Page) {
  return listResourcesAtLocation(db, workspaceId, locationId, page);
}

export function listResourcesWithArchived(db: Db, workspaceId: string) {
  return listAllResources(db, workspaceId);
}

export async function createResource(
  uow: UnitOfWork,
  workspaceId: string,
  body: ResourceCreateBody,
): Promise<ResourceRow> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    const locationId = body.location_uuid.toLowerCase();
    if (!(await liveLocationIds(tx, workspaceId, [locationId])).has(locationId))
      errors.add('location_uuid', 'The selected location is invalid.', NOT_A_CHOICE);
    errors.throwIfAny();
    const id = await insertResource(tx, workspaceId, {
      ...values,
      location_id: locationId,
      type: values.type!,
      name: values.name!,
    });
    return getResource(tx, workspaceId, id);
  });
}

export async function updateResource(
  uow: UnitOfWork,
  workspaceId: string,
  resourceId: string,
  body: ResourceUpdateBody,
): Promise<ResourceRow> {
  const errors = new FieldErrorBag();
  const values = scalarValues(body, errors);
  return uow.run(workspaceId, async (tx) => {
    const current = await getResource(tx, workspaceId, resourceId);
    errors.throwIfAny();
    if (values.type !== undefined && values.type !== current.type) {
      const services = await servicesNamingResource(tx, workspaceId, resourceId);
      if (services.length > 0) throw new ResourceNamedByServices(services, 'type');
    }
    if (!(await updateResourceRow(tx, workspaceId, resourceId, values))) throw notFound('Resource');
    return getResource(tx, workspaceId, resourceId);
  });
}

export async function archiveResource(
  uow: UnitOfWork,
  workspaceId: string,
  resourceId: string,
): Promise<void> {
  const archived = await uow.run(workspaceId, async (tx) => {
    const services = await servicesNamingResource(tx, workspaceId, resourceId);
    if (services.length > 0 && (await findResource(tx, workspaceId, resourceId))?.archived_at === null)
      throw new ResourceNamedByServices(services, 'archive');
    return archiveResourceRow(tx, workspaceId, resourceId);
  });
  if (!archived) throw notFound('Resource');
}

function scalarValues(body: ResourceUpdateBody, errors: FieldErrorBag): ResourceValues {
  const values: ResourceValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.', REQUIRED);
    values.name = body.name.trim();
  }
  if (body.type !== undefined) values.type = body.type;
  if (body.capacity !== undefined) values.capacity = body.capacity;
  return values;
}

/**
 * A service's requirements as stored, from a request's `field` (`resources`): a named unit
 * must be a live resource of the workspace of the type given, and then counts as one unit.
 */
export async function checkRequirements(
  db: Db,
  workspaceId: string,
  entries: ResourceRequirementBody[],
  field: string,
): Promise<ResourceRequirementJson[]> {
  const named = entries.flatMap((e) => (e.resource_uuid ? [e.resource_uuid.toLowerCase()] : []));
  const live = new Map((await liveResources(db, workspaceId, named)).map((r) => [r.id, r]));
  return entries.map((entry, index) => {
    const id = entry.resource_uuid ? entry.resource_uuid.toLowerCase() : null;
    if (id !== null) {
      const unit = live.get(id);
      if (!unit || unit.type !== entry.type)
        throw invalidField(
          `${field}.${index}.resource_uuid`,
          'The selected resource is invalid.',
          NOT_A_CHOICE,
        );
      if ((entry.units ?? 1) !== 1)
        throw invalidField(
          `${field}.${index}.units`,
          'A named resource is one unit.',
          ruleIssue('named_resource_one_unit'),
        );
    }
    return { type: entry.type, units: entry.units ?? 1, resource_id: id };
  });
}
