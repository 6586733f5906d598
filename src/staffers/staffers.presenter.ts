import type { StafferRecord } from './staffers.repository.js';

/** A staffer as the API answers it, plus what the staffer provides where. */
export function presentStaffer(staffer: StafferRecord) {
  return {
    uuid: staffer.id,
    first_name: staffer.first_name,
    last_name: staffer.last_name,
    position: staffer.position,
    description: staffer.description,
    avatar: staffer.avatar,
    services: staffer.assignments.map((assignment) => ({
      location_uuid: assignment.locationId,
      service_uuids: assignment.serviceIds,
    })),
  };
}
