import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { ServiceInput } from '../slots/engine/types.js';
import type { OfferedService } from '../slots/slots.repository.js';

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

/** The resource requirements of a booking of these services (docs/resources.md): each service's, in order. */
export function requirementsOf(services: OfferedService[]): ResourceRequirementJson[] {
  return services.flatMap((s) => s.resource_requirements ?? []);
}

/**
 * Whether a booking of these services needs a staffer: unless every one is a rental (a service
 * needing no staffer, docs/resources.md "Rentals"). A rental booked together with a service that
 * needs a staffer is one session of that staffer, holding the units of both.
 */
export function needsStaffer(services: Pick<OfferedService, 'staffer_needed'>[]): boolean {
  return services.some((s) => s.staffer_needed !== false);
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
