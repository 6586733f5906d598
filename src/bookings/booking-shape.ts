import type { Db } from '../db/client.js';
import { invalidField } from '../errors.js';
import { loadOfferedServices, type OfferedService } from '../slots/slots.repository.js';
import type { ServiceInput } from '../slots/types.js';

const MINUTE_MS = 60_000;

/**
 * What a booking of these services occupies, as the slot engine sees one service: durations add
 * up, buffers come from the first and last service, and a group seat exists only for a booking
 * of exactly one group service.
 */
export function combinedService(services: OfferedService[]): ServiceInput {
  const first = services[0]!;
  const last = services[services.length - 1]!;
  return {
    id: first.id,
    durationMinutes: services.reduce((sum, service) => sum + service.duration_minutes, 0),
    capacity: services.length === 1 ? first.capacity : 1,
    bufferBeforeMinutes: first.buffer_before_minutes,
    bufferAfterMinutes: last.buffer_after_minutes,
    priceMinor: services.reduce((sum, service) => sum + service.price, 0),
  };
}

/** The occupied span of a booking starting at `start` (buffers included). */
export function occupiedSpan(service: ServiceInput, start: number) {
  return {
    serviceStart: new Date(start),
    end: new Date(start + service.durationMinutes * MINUTE_MS),
    spanStart: new Date(start - service.bufferBeforeMinutes * MINUTE_MS),
    spanEnd: new Date(start + (service.durationMinutes + service.bufferAfterMinutes) * MINUTE_MS),
  };
}

/** Live services offered at the location, in the order asked; 422 naming `field.N` otherwise. */
export async function requireOfferedServices(
  tx: Db,
  workspaceId: string,
  locationId: string,
  serviceIds: string[],
  field: string,
): Promise<OfferedService[]> {
  const offered = await loadOfferedServices(tx, workspaceId, locationId, serviceIds);
  return serviceIds.map((id, index) => {
    const service = offered.get(id);
    if (!service) {
      throw invalidField(
        serviceIds.length === 1 && field === 'service_uuid' ? field : `${field}.${index}`,
        'The selected service is not offered at this location.',
      );
    }
    return service;
  });
}

/** The booking's current services (its order lines), for re-checking a changed booking. */
export async function bookingServices(
  tx: Db,
  workspaceId: string,
  bookingId: string,
): Promise<OfferedService[]> {
  const rows = await tx
    .selectFrom('booking_services as bs')
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'bs.workspace_id').onRef('s.id', '=', 'bs.service_id'),
    )
    .select([
      's.id',
      's.name',
      'bs.price',
      'bs.duration_minutes',
      's.capacity',
      's.buffer_before_minutes',
      's.buffer_after_minutes',
    ])
    .where('bs.workspace_id', '=', workspaceId)
    .where('bs.booking_id', '=', bookingId)
    .orderBy('bs.position')
    .orderBy('bs.id')
    .execute();
  return rows;
}
