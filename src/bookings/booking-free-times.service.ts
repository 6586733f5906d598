import { findLiveLocation, type LocationRow } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import { formatMoney } from '../platform/money.js';
import { loadResourceNeeds } from '../resources/resource-occupancies.repository.js';
import { computeSlots } from '../slots/engine/compute-slots.js';
import type { Slot, StafferInput } from '../slots/engine/types.js';
import { loadOfferedServices, loadStafferInputs, type OfferedService } from '../slots/slots.repository.js';
import { rentalHours } from '../slots/slots.service.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { combinedService, needsStaffer, requirementsOf } from './booking-shape.rules.js';
import { type BookingView, findBookingSeat, findBookingServices } from './bookings.repository.js';

const DAY_MS = 86_400_000;

/**
 * The free starts of one local date for a booking of these services (in order, durations added
 * as a booking of them occupies its staffer), with one staffer or any: the slot engine's answer
 * for the shape createBooking and the changes check, so every time offered passes their check.
 * `excludeSeat` leaves out the booking being moved, which does not stand in its own way.
 */
export async function freeTimesOn(db: Db, args: FreeTimesArgs): Promise<Slot[]> {
  return (await timesOn(db, args, false)).free;
}

interface FreeTimesArgs {
  workspace: WorkspaceRow;
  location: Pick<LocationRow, 'id' | 'timezone'>;
  services: OfferedService[];
  stafferId?: string | undefined;
  date: string;
  now: number;
  excludeSeat?: { id: string; seats: number } | undefined;
}

/**
 * The free starts of the date, and with `outside` the starts refused only by the staffers' own
 * calendars (free once their outside busy time is left out): the panel may book those anyway.
 */
async function timesOn(
  db: Db,
  args: FreeTimesArgs,
  outside: boolean,
): Promise<{ free: Slot[]; outsideBusy: Slot[] }> {
  if (args.services.length === 0) return { free: [], outsideBusy: [] };
  const service = combinedService(args.services);
  const dayUtc = Date.parse(`${args.date}T00:00:00Z`);
  // A rental reads no staffer: its hours are the location's (docs/resources.md "Rentals").
  const rental = needsStaffer(args.services) ? undefined : await rentalOfLocation(db, args);
  const staffers =
    rental !== undefined
      ? []
      : await loadStafferInputs(db, {
          workspaceId: args.workspace.id,
          locationId: args.location.id,
          serviceIds: args.services.map((s) => s.id),
          stafferId: args.stafferId,
          // A local date lies within a day and a bit of its UTC midnight in every zone (offsets ≤ 14 h).
          from: dayUtc - DAY_MS,
          to: dayUtc + 2 * DAY_MS,
          excludeOccupancy: args.excludeSeat,
        });
  const resources = await loadResourceNeeds(db, {
    workspaceId: args.workspace.id,
    locationId: args.location.id,
    requirements: requirementsOf(args.services),
    capacity: service.capacity,
    from: dayUtc - DAY_MS,
    to: dayUtc + 2 * DAY_MS,
    excludeOccupancyId: args.excludeSeat?.id,
  });
  const slotsWith = (input: StafferInput[]) =>
    computeSlots({
      ...(resources.length > 0 ? { resources } : {}),
      locationZone: args.location.timezone,
      answerZone: args.location.timezone,
      service,
      rules: {
        slotStepMinutes: args.workspace.slot_step_minutes,
        minNoticeMinutes: args.workspace.min_notice_minutes,
        horizonDays: args.workspace.horizon_days,
      },
      staffers: input,
      ...(rental !== undefined ? { rental } : {}),
      now: args.now,
      rangeStart: args.date,
      rangeEnd: args.date,
      priceFormatted: formatMoney(service.priceMinor, args.workspace.currency, args.workspace.locale),
    })[0]?.slots ?? [];
  const free = slotsWith(staffers);
  if (!outside || !staffers.some((s) => s.busy && s.busy.length > 0)) return { free, outsideBusy: [] };
  const taken = new Set(free.map((slot) => slot.start_time));
  const outsideBusy = slotsWith(staffers.map(({ busy: _busy, ...staffer }) => staffer)).filter(
    (slot) => !taken.has(slot.start_time),
  );
  return { free, outsideBusy };
}

async function rentalOfLocation(db: Db, args: FreeTimesArgs) {
  const location = await findLiveLocation(db, args.workspace.id, args.location.id);
  return rentalHours({ opening_hours: location?.opening_hours ?? {} });
}

/**
 * The free starts of one local date for the services `serviceIds` names, in that order; ids the
 * location does not offer are left out.
 */
export async function freeTimesOfServices(
  db: Db,
  args: {
    workspace: WorkspaceRow;
    location: Pick<LocationRow, 'id' | 'timezone'>;
    serviceIds: string[];
    stafferId?: string | undefined;
    date: string;
    now: number;
  },
): Promise<Slot[]> {
  return (await timesOfServices(db, args, false)).free;
}

/**
 * As freeTimesOfServices, and the starts refused only by the staffers' own calendars, which the
 * panel offers marked (a create there is refused with SlotBlockedOutside, then booked anyway).
 */
export function timesOfServicesWithOutsideBusy(
  db: Db,
  args: Parameters<typeof freeTimesOfServices>[1],
): Promise<{ free: Slot[]; outsideBusy: Slot[] }> {
  return timesOfServices(db, args, true);
}

async function timesOfServices(db: Db, args: Parameters<typeof freeTimesOfServices>[1], outside: boolean) {
  const { serviceIds, ...rest } = args;
  const offered = await loadOfferedServices(db, args.workspace.id, args.location.id, serviceIds);
  return timesOn(
    db,
    { ...rest, services: serviceIds.map((id) => offered.get(id)!).filter(Boolean) },
    outside,
  );
}

/**
 * The free starts of one local date for a booking's own services, with `stafferId`: where the
 * booking could move to. The booking's own seat is left out, so it does not stand in its own way.
 */
export async function freeTimesOfBooking(
  db: Db,
  args: {
    workspace: WorkspaceRow;
    view: BookingView;
    stafferId: string | undefined;
    date: string;
    now: number;
  },
): Promise<Slot[]> {
  const { workspace, view } = args;
  const [services, seat] = await Promise.all([
    findBookingServices(db, workspace.id, view.id),
    findBookingSeat(db, workspace.id, view.id),
  ]);
  return freeTimesOn(db, {
    workspace,
    location: { id: view.location_id, timezone: view.timezone },
    services,
    stafferId: args.stafferId,
    date: args.date,
    now: args.now,
    excludeSeat: seat,
  });
}

/** Up to `count` of the slots nearest to `asked` (epoch ms), in the day's order. */
export function nearestSlots(slots: Slot[], asked: number, count = 6): Slot[] {
  const distance = (slot: Slot) => Math.abs(Date.parse(slot.start_time) - asked);
  const nearest = new Set([...slots].sort((a, b) => distance(a) - distance(b)).slice(0, count));
  return slots.filter((slot) => nearest.has(slot));
}
