import { FieldErrorBag, REQUIRED, ruleIssue } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { WeeklyJson } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import { canonicalZone } from '../platform/time/zone.js';
import { forgetLocationDays } from '../reports/report-rollup.repository.js';
import {
  archiveLocation as archiveLocationRow,
  insertLocation,
  type LocationRow,
  type LocationValues,
  listAllLocations,
  listLocations,
  requireLocation as requireLiveLocation,
  updateLocation as updateLocationRow,
} from './locations.repository.js';
import { type LocationCreateBody, type LocationUpdateBody, WEEKDAYS } from './locations.schemas.js';

export async function createLocation(
  uow: UnitOfWork,
  workspaceId: string,
  body: LocationCreateBody,
): Promise<LocationRow> {
  const values = toValues(body);
  return uow.run(workspaceId, (tx) =>
    insertLocation(tx, workspaceId, { ...values, name: body.name.trim(), timezone: values.timezone! }),
  );
}

export async function updateLocation(
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
  body: LocationUpdateBody,
): Promise<LocationRow> {
  const values = toValues(body);
  return uow.run(workspaceId, async (tx) => {
    const row = await updateLocationRow(tx, workspaceId, locationId, values);
    // Its bookings fall on other local days in another zone: the reports' day sums start over.
    if (values.timezone !== undefined) await forgetLocationDays(tx, workspaceId, locationId);
    return row;
  });
}

export async function archiveLocation(
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
): Promise<void> {
  await uow.run(workspaceId, (tx) => archiveLocationRow(tx, workspaceId, locationId));
}

/** Checks what the schema cannot express and maps the body onto columns (only the keys given). */
function toValues(body: LocationUpdateBody): LocationValues {
  const errors = new FieldErrorBag();
  const values: LocationValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.', REQUIRED);
    values.name = body.name.trim();
  }
  if (body.timezone !== undefined) {
    const zone = canonicalZone(body.timezone);
    if (zone === undefined)
      errors.add(
        'timezone',
        'The timezone field must be a valid IANA time zone.',
        ruleIssue('timezone_invalid'),
      );
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

/** Each interval ends after it starts, and the intervals of one day do not overlap (as schedules). */
function checkOpeningHours(hours: WeeklyJson, errors: FieldErrorBag): void {
  for (const day of WEEKDAYS) {
    const ranges = hours[day] ?? [];
    ranges.forEach((range, index) => {
      if (range.to <= range.from) {
        errors.add(
          `opening_hours.${day}.${index}.to`,
          'The to time must be after the from time.',
          ruleIssue('location_to_after_from'),
        );
      }
    });
    // 'HH:MM' strings order as times do; touching intervals (09-12, 12-15) do not overlap.
    const sorted = ranges
      .map((range, index) => ({ ...range, index }))
      .filter((range) => range.from < range.to)
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.from < sorted[i - 1]!.to) {
        errors.add(
          `opening_hours.${day}.${sorted[i]!.index}`,
          `The interval overlaps another interval of ${day} (${sorted[i - 1]!.from}-${sorted[i - 1]!.to}).`,
          ruleIssue('location_hours_overlap', { from: sorted[i - 1]!.from, to: sorted[i - 1]!.to }),
        );
      }
    }
  }
}

/** Every location of the workspace, archived ones last (the panel's lists and pickers). */
export function listLocationsWithArchived(db: Db, workspaceId: string): Promise<LocationRow[]> {
  return listAllLocations(db, workspaceId);
}

/** A live location of the workspace; a 404 for another workspace's or an archived one. */
export function getLocation(db: Db, workspaceId: string, locationId: string): Promise<LocationRow> {
  return requireLiveLocation(db, workspaceId, locationId);
}

/** One page of the workspace's live locations, with their total. */
export function listLocationsPage(db: Db, workspaceId: string, page: Page) {
  return listLocations(db, workspaceId, page);
}
