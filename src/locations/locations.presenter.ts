import { zoneLabelAt } from '../platform/time/zone.js';
import type { LocationRow } from './locations.repository.js';

/** A location as the API answers it. `timezone.offset` and `short` are those in force at `now`. */
export function presentLocation(location: LocationRow, now: number) {
  const parts = [
    location.address_1,
    location.address_2,
    [location.postal_code, location.city].filter(Boolean).join(' '),
  ];
  return {
    uuid: location.id,
    name: location.name,
    description: location.description,
    address: {
      address_1: location.address_1,
      address_2: location.address_2,
      city: location.city,
      postal_code: location.postal_code,
      country_iso: location.country_iso,
      formatted: [...parts, location.country_iso].filter((part) => part.trim() !== '').join(', '),
      position:
        location.lat === null || location.lng === null ? null : { lat: location.lat, lng: location.lng },
    },
    timezone: { name: location.timezone, ...zoneLabelAt(location.timezone, now) },
    phone: location.phone,
    opening_hours: { days: location.opening_hours },
    images: location.images,
  };
}
