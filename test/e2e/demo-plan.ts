/**
 * Chooses, from what the API itself lists, the times and people of the end-to-end sequence, so
 * the test follows whatever the demo workspace holds instead of hard-coding its data:
 * a location L and an individual service S with two providers A and B; T1 = the first slot of S
 * that week, at which A is free; T2 = another slot at which A is free for S and B is free for S
 * and for a second service S2 that B provides (the later staffer and services changes).
 */

export interface Slot {
  start: string;
  start_formatted: number;
  end: string;
  end_formatted: number;
  quantity: number;
  price: number;
  price_formatted: string;
  start_time: string;
}
export interface SlotDay {
  date: string;
  slots: Slot[];
  intervals: { start: string; start_formatted: number; end: string; end_formatted: number }[];
}
export interface SlotAnswer {
  today: string;
  timezone: string;
  currency: string;
  dates: SlotDay[];
}
export interface Location {
  uuid: string;
  name: string;
  timezone: { name: string };
}
export interface Service {
  uuid: string;
  name: string;
  price: number;
  capacity: number;
  duration: { value: number };
}
export interface Staffer {
  uuid: string;
  first_name: string;
  services: { location_uuid: string; service_uuids: string[] }[];
}

export interface Plan {
  location: Location;
  service: Service;
  /** The "time-slots for a service over a week" answer for S (no staffer). */
  week: SlotAnswer;
  first: { date: string; slot: Slot };
  second: { date: string; slot: Slot };
  staffer: Staffer;
  other: Staffer;
  otherService: Service;
}

/** Fetches a time-slot answer; `staffer` narrows it to one staffer. */
export type SlotsOf = (location: Location, service: Service, staffer?: Staffer) => Promise<SlotAnswer>;

const provides = (staffer: Staffer, location: Location, service: Service) =>
  staffer.services.some(
    (entry) => entry.location_uuid === location.uuid && entry.service_uuids.includes(service.uuid),
  );

const slotsByStart = (answer: SlotAnswer) =>
  new Map(
    answer.dates.flatMap((day) => day.slots.map((slot) => [slot.start_time, { date: day.date, slot }])),
  );

export async function choosePlan(
  locations: Location[],
  servicesAt: Map<string, Service[]>,
  staffersAt: Map<string, Staffer[]>,
  slotsOf: SlotsOf,
): Promise<Plan | undefined> {
  for (const location of locations) {
    const individual = (servicesAt.get(location.uuid) ?? []).filter((service) => service.capacity === 1);
    for (const service of individual) {
      const providers = (staffersAt.get(location.uuid) ?? []).filter((s) => provides(s, location, service));
      if (providers.length < 2) continue;
      const week = await slotsOf(location, service);
      for (const staffer of providers) {
        const own = slotsByStart(await slotsOf(location, service, staffer));
        // The week's first slot at which this staffer is free, not the week's very first: that
        // one may be a staffer's who cannot be A (run on a Thursday, the demo's first massage is
        // Priya's Friday noon, and Sam, the other provider, has no second individual service).
        const first = week.dates
          .flatMap((day) => day.slots.map((slot) => ({ date: day.date, slot })))
          .find(({ slot }) => own.has(slot.start_time));
        if (!first) continue;
        for (const other of providers.filter((p) => p !== staffer)) {
          const otherFree = slotsByStart(await slotsOf(location, service, other));
          for (const otherService of individual.filter(
            (s) => s !== service && provides(other, location, s),
          )) {
            const otherServiceFree = slotsByStart(await slotsOf(location, otherService, other));
            for (const [start, second] of own) {
              if (start !== first.slot.start_time && otherFree.has(start) && otherServiceFree.has(start))
                return { location, service, week, first, second, staffer, other, otherService };
            }
          }
        }
      }
    }
  }
  return undefined;
}
