import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { ResourceRow } from './resources.repository.js';

/** A resource as the API answers it. */
export function presentResource(resource: ResourceRow) {
  return {
    uuid: resource.id,
    location_uuid: resource.location_id,
    type: resource.type,
    name: resource.name,
    capacity: resource.capacity,
  };
}

/** A service's requirements as the API answers them. */
export function presentRequirements(requirements: ResourceRequirementJson[]) {
  return requirements.map((r) => ({ type: r.type, units: r.units, resource_uuid: r.resource_id }));
}
