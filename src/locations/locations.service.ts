import type { Db } from '../db/client.js';
import type { WeeklyJson } from '../db/schema.js';
import { FieldErrorBag } from '../errors.js';
import { canonicalZone } from '../time/zone.js';
import {
  archiveLocation as archiveLocationRow,
  insertLocation,
  type LocationRow,
  type LocationValues,
  updateLocation as updateLocationRow,
} from './locations.repository.js';
import { type LocationCreateBody, type LocationUpdateBody, WEEKDAYS } from './locations.schemas.js';

export async function createLocation(
  db: Db,
  workspaceId: string,
  body: LocationCreateBody,
): Promise<LocationRow> {
  const values = toValues(body);
  return insertLocation(db, workspaceId, { ...values, name: body.name.trim(), timezone: values.timezone! });
}

export async function updateLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
  body: LocationUpdateBody,
): Promise<LocationRow> {
  return updateLocationRow(db, workspaceId, locationId, toValues(body));
}

export async function archiveLocation(db: Db, workspaceId: string, locationId: string): Promise<void> {
  await archiveLocationRow(db, workspaceId, locationId);
}

/** Checks what the schema cannot express and maps the body onto columns (only the keys given). */
function toValues(body: LocationUpdateBody): LocationValues {
  const errors = new FieldErrorBag();
  const values: LocationValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.');
    values.name = body.name.trim();
  }
  if (body.timezone !== undefined) {
    const zone = canonicalZone(body.timezone);
    if (zone === undefined) errors.add('timezone', 'The timezone field must be a valid IANA time zone.');
    else values.timezone = zone;
  }
  if (body.description !== undefined) values.description = body.description;
  if (body.phone !== undefined) values.phone = body.phone.trim();
  if (body.images !== undefined) values.images = JSON.stringify(body.images);
  if (body.opening_hours !== undefined) {
    checkOpeningHours(body.opening_hours, errors);
    values.opening_hours = JSON.stringify(body.opening_hours);
  }
  const address = body.address;
  if (address !== undefined) {
    if (address.address_1 !== undefined) values.address_1 = address.address_1;
    if (address.address_2 !== undefined) values.address_2 = address.address_2;
    if (address.city !== undefined) values.city = address.city;
    if (address.postal_code !== undefined) values.postal_code = address.postal_code;
    if (address.country_iso !== undefined) values.country_iso = address.country_iso.toUpperCase();
    if (address.position !== undefined) {
      values.lat = address.position?.lat ?? null;
      values.lng = address.position?.lng ?? null;
    }
  }
  errors.throwIfAny();
  return values;
}

function checkOpeningHours(hours: WeeklyJson, errors: FieldErrorBag): void {
  for (const day of WEEKDAYS) {
    const ranges = hours[day] ?? [];
    ranges.forEach((range, index) => {
      if (range.to <= range.from) {
        errors.add(`opening_hours.${day}.${index}.to`, 'The to time must be after the from time.');
      }
    });
  }
}
