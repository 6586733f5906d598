import type { Insertable } from 'kysely';
import { DateTime } from 'luxon';
import type { CreatedApiKey } from '../api-keys/api-keys.service.js';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type {
  BookingForm,
  LocationsTable,
  OverrideJson,
  PaymentAccountType,
  WeeklyJson,
} from '../platform/db/schema.js';
import { insertService } from '../services/services.repository.js';
import { insertStaffer } from '../staffers/staffers.repository.js';
import { upsertMembership } from '../users/users.repository.js';
import { createUser } from '../users/users.service.js';
import { openWritePath } from '../write-path.js';
import {
  insertDemoCategories,
  insertDemoLocation,
  insertDemoPaymentAccounts,
  insertDemoSchedule,
  insertDemoServiceLocations,
  insertDemoStafferServices,
} from './demo.repository.js';
import { anyWorkspaceExists, replaceBookingForm, type WorkspaceRow } from './workspaces.repository.js';
import { createWorkspace } from './workspaces.service.js';

export const DEMO_SLUG = 'demo';
/** The demo workspace's owner, made on first run with a one-time password (README "Panel"). */
export const DEMO_OWNER_EMAIL = 'owner@kairos.example';

/**
 * The demo workspace: a two-branch studio that looks like a real business, so that a first
 * `npm start` has something to list, book and cancel. Times are wall times in each location's zone.
 */

type LocationKey = 'berlin' | 'newYork';
type ServiceKey = 'haircut' | 'express' | 'colour' | 'massage' | 'facial' | 'manicure' | 'yoga' | 'consult';

const r = (from: string, to: string) => ({ from, to });
const days = (keys: (keyof WeeklyJson)[], ranges: { from: string; to: string }[]): WeeklyJson =>
  Object.fromEntries(keys.map((key) => [key, ranges]));
const MON_TO_THU: (keyof WeeklyJson)[] = ['mon', 'tue', 'wed', 'thu'];

const LOCATIONS: Record<
  LocationKey,
  Omit<Insertable<LocationsTable>, 'workspace_id' | 'opening_hours' | 'images'> & {
    timezone: string;
    opening_hours: WeeklyJson;
  }
> = {
  berlin: {
    name: 'Kairos Studio Berlin',
    description: 'Hair, beauty and wellness in Mitte, two minutes from Rosenthaler Platz.',
    address_1: 'Torstraße 125',
    address_2: '2nd floor',
    city: 'Berlin',
    postal_code: '10119',
    country_iso: 'DE',
    lat: 52.5296,
    lng: 13.4017,
    timezone: 'Europe/Berlin',
    phone: '+493012345678',
    opening_hours: { ...days([...MON_TO_THU, 'fri'], [r('08:00', '20:00')]), sat: [r('10:00', '16:00')] },
  },
  newYork: {
    name: 'Kairos Studio New York',
    description: 'Our SoHo studio: cuts, colour, facials and morning yoga.',
    address_1: '148 Lafayette Street',
    address_2: 'Suite 4',
    city: 'New York',
    postal_code: '10013',
    country_iso: 'US',
    lat: 40.7194,
    lng: -73.9996,
    timezone: 'America/New_York',
    phone: '+12125550142',
    opening_hours: {
      ...days(MON_TO_THU, [r('07:00', '21:00')]),
      fri: [r('10:00', '20:00')],
      sat: [r('09:00', '15:00')],
      sun: [r('09:00', '20:00')],
    },
  },
};

const CATEGORIES = ['Hair', 'Body & Face', 'Nails', 'Classes'] as const;
type Category = (typeof CATEGORIES)[number];

/** Prices in minor units of the workspace currency (EUR by default). */
const SERVICES: Record<
  ServiceKey,
  {
    name: string;
    category: Category;
    description: string;
    price: number;
    duration: number;
    capacity?: number;
    bufferBefore?: number;
    bufferAfter?: number;
  }
> = {
  haircut: {
    name: 'Haircut & Styling',
    category: 'Hair',
    description: 'Wash, cut and blow-dry.',
    price: 4500,
    duration: 45,
    bufferAfter: 10, // sweeping up and a fresh cape
  },
  express: {
    name: 'Express Haircut',
    category: 'Hair',
    description: 'A quick dry cut.',
    price: 2500,
    duration: 30,
  },
  colour: {
    name: 'Hair Colouring',
    category: 'Hair',
    description: 'Full colour with toner and blow-dry.',
    price: 9500,
    duration: 90,
    bufferBefore: 15, // mixing the colour
    bufferAfter: 15,
  },
  massage: {
    name: 'Deep Tissue Massage',
    category: 'Body & Face',
    description: 'Sixty minutes of focused bodywork.',
    price: 7000,
    duration: 60,
  },
  facial: {
    name: 'Signature Facial',
    category: 'Body & Face',
    description: 'Cleansing, exfoliation, mask and massage.',
    price: 6500,
    duration: 60,
  },
  manicure: {
    name: 'Classic Manicure',
    category: 'Nails',
    description: 'Shape, cuticle care and polish.',
    price: 3500,
    duration: 45,
  },
  yoga: {
    name: 'Vinyasa Yoga Class',
    category: 'Classes',
    description: 'A group class for all levels; mats are provided.',
    price: 1800,
    duration: 60,
    capacity: 8,
  },
  consult: {
    name: 'Free Consultation',
    category: 'Hair',
    description: 'Talk through a new look before you book it.',
    price: 0,
    duration: 30,
  },
};

interface DemoStaffer {
  first_name: string;
  last_name: string;
  position: string;
  description: string;
  location: LocationKey;
  services: ServiceKey[];
  weekly: WeeklyJson;
  breaks?: WeeklyJson;
  /** Date overrides relative to `now`: which date (from today in the location's zone) and its hours. */
  overrides?: { date: (today: DateTime) => DateTime; intervals: OverrideJson['intervals'] }[];
}

const STAFFERS: DemoStaffer[] = [
  {
    first_name: 'Lena',
    last_name: 'Hoffmann',
    position: 'Senior Stylist',
    description: 'Cuts and colour; twelve years behind the chair.',
    location: 'berlin',
    services: ['haircut', 'express', 'colour', 'consult'],
    // A split shift on weekdays, a short Saturday.
    weekly: {
      ...days(['mon', 'tue', 'wed', 'thu', 'fri'], [r('09:00', '13:00'), r('14:00', '18:00')]),
      sat: [r('10:00', '14:00')],
    },
    // A day off in ten days' time.
    overrides: [{ date: (today) => today.plus({ days: 10 }), intervals: [] }],
  },
  {
    first_name: 'Jonas',
    last_name: 'Weber',
    position: 'Massage Therapist',
    description: 'Sports and deep tissue massage.',
    location: 'berlin',
    services: ['massage', 'facial'],
    weekly: { ...days(['tue', 'wed', 'thu', 'fri'], [r('11:00', '19:00')]), sat: [r('10:00', '16:00')] },
    breaks: days(['tue', 'wed', 'thu', 'fri'], [r('15:00', '15:30')]),
  },
  {
    first_name: 'Amira',
    last_name: 'Yilmaz',
    position: 'Nail Artist & Yoga Teacher',
    description: 'Manicures by day, vinyasa flow in the mornings and evenings.',
    location: 'berlin',
    services: ['manicure', 'yoga'],
    weekly: {
      ...days(['mon', 'wed', 'fri'], [r('08:00', '12:00'), r('16:00', '20:00')]),
      thu: [r('12:00', '20:00')],
    },
  },
  {
    first_name: 'Jordan',
    last_name: 'Reyes',
    position: 'Stylist',
    description: 'Precision cuts and balayage.',
    location: 'newYork',
    services: ['haircut', 'express', 'colour', 'consult'],
    weekly: {
      ...days(['mon', 'tue', 'wed', 'thu', 'fri'], [r('10:00', '18:00')]),
      sat: [r('09:00', '15:00')],
    },
    breaks: days(['mon', 'tue', 'wed', 'thu', 'fri'], [r('13:00', '14:00')]),
    // Works the Sunday of next week, normally a day off.
    overrides: [
      { date: (today) => today.plus({ weeks: 1 }).set({ weekday: 7 }), intervals: [r('11:00', '17:00')] },
    ],
  },
  {
    first_name: 'Priya',
    last_name: 'Patel',
    position: 'Esthetician',
    description: 'Facials, nails and relaxing massage.',
    location: 'newYork',
    services: ['facial', 'manicure', 'massage'],
    weekly: days(['wed', 'thu', 'fri', 'sat', 'sun'], [r('12:00', '20:00')]),
    breaks: days(['wed', 'thu', 'fri', 'sat', 'sun'], [r('16:00', '16:30')]),
  },
  {
    first_name: 'Sam',
    last_name: 'Carter',
    position: 'Yoga Instructor',
    description: 'Early-bird and after-work classes; also sports massage.',
    location: 'newYork',
    services: ['yoga', 'massage'],
    weekly: {
      ...days(MON_TO_THU, [r('07:00', '10:00'), r('17:00', '21:00')]),
      ...days(['sat', 'sun'], [r('09:00', '13:00')]),
    },
  },
];

const PAYMENT_ACCOUNTS: { name: string; type: PaymentAccountType }[] = [
  { name: 'Cash desk', type: 'cash' },
  { name: 'Card terminal', type: 'card' },
];

/** The demo asks for a first name on every booking, so the "required by the form" rule shows. */
const DEMO_BOOKING_FORM: BookingForm = {
  customer_first_name: 'required',
  customer_last_name: 'optional',
  customer_email: 'optional',
  booking_comment: 'optional',
  booking_callback: 'optional',
};

export interface DemoSummary {
  locationIds: Record<LocationKey, string>;
  serviceIds: Record<ServiceKey, string>;
  stafferIds: string[];
}

/**
 * Fills an existing workspace (its statuses already made by createWorkspace) with the demo
 * studio, in the caller's transaction (createWorkspace's `fill`). `now` anchors the date
 * overrides so they fall in the coming days.
 */
export async function seedDemoWorkspace(
  tx: Db,
  workspace: { id: string },
  now: number,
): Promise<DemoSummary> {
  const workspace_id = workspace.id;
  await replaceBookingForm(tx, workspace_id, DEMO_BOOKING_FORM, new Date(now));

  const locationIds = {} as Record<LocationKey, string>;
  for (const [key, location] of Object.entries(LOCATIONS) as [
    LocationKey,
    (typeof LOCATIONS)[LocationKey],
  ][]) {
    locationIds[key] = await insertDemoLocation(tx, workspace_id, location);
  }
  await insertDemoPaymentAccounts(
    tx,
    workspace_id,
    Object.values(locationIds).flatMap((location_id) =>
      PAYMENT_ACCOUNTS.map((account) => ({ ...account, location_id })),
    ),
  );

  const categoryId = await insertDemoCategories(tx, workspace_id, CATEGORIES);

  const serviceIds = {} as Record<ServiceKey, string>;
  for (const [key, service] of Object.entries(SERVICES) as [ServiceKey, (typeof SERVICES)[ServiceKey]][]) {
    serviceIds[key] = await insertService(tx, workspace_id, {
      category_id: categoryId.get(service.category) ?? null,
      name: service.name,
      description: service.description,
      price: service.price,
      duration_minutes: service.duration,
      capacity: service.capacity ?? 1,
      buffer_before_minutes: service.bufferBefore ?? 0,
      buffer_after_minutes: service.bufferAfter ?? 0,
    });
  }
  // Every service is offered at both locations.
  await insertDemoServiceLocations(
    tx,
    workspace_id,
    Object.values(serviceIds).flatMap((service_id) =>
      Object.values(locationIds).map((location_id) => ({ service_id, location_id })),
    ),
  );

  const stafferIds: string[] = [];
  for (const staffer of STAFFERS) {
    const location_id = locationIds[staffer.location];
    const staffer_id = await insertStaffer(tx, workspace_id, {
      first_name: staffer.first_name,
      last_name: staffer.last_name,
      position: staffer.position,
      description: staffer.description,
      avatar: null,
    });
    stafferIds.push(staffer_id);
    await insertDemoStafferServices(
      tx,
      workspace_id,
      staffer.services.map((key) => ({ staffer_id, location_id, service_id: serviceIds[key] })),
    );
    const today = DateTime.fromMillis(now, { zone: LOCATIONS[staffer.location].timezone }).startOf('day');
    const overrides: OverrideJson[] = (staffer.overrides ?? []).map((override) => ({
      date: override.date(today).toISODate() ?? '',
      intervals: override.intervals,
    }));
    await insertDemoSchedule(tx, workspace_id, {
      staffer_id,
      location_id,
      weekly: staffer.weekly,
      breaks: staffer.breaks ?? {},
      overrides,
    });
  }
  return { locationIds, serviceIds, stafferIds };
}

/** The first user: the demo workspace's owner, signing in with a one-time password. */
export interface DemoOwner {
  email: string;
  oneTimePassword: string;
}

/**
 * First run: an empty store gets the demo workspace and its owner. Returns them when created now.
 * Several API processes may start together on one PostgreSQL: the one that loses the race for the
 * demo slug returns undefined instead of failing its start-up.
 */
export async function seedDemoIfEmpty(
  db: Db,
  now: number,
): Promise<{ workspace: WorkspaceRow; apiKey: CreatedApiKey; owner: DemoOwner } | undefined> {
  if (await anyWorkspaceExists(db)) return undefined;
  let created: { workspace: WorkspaceRow; apiKey: CreatedApiKey };
  let owner: DemoOwner | undefined;
  try {
    created = await createWorkspace(
      openWritePath(db).uow,
      { slug: DEMO_SLUG, name: 'Kairos Demo Studio' },
      'demo',
      async (tx, workspace) => {
        await seedDemoWorkspace(tx, workspace, now);
        // The owner commits with the workspace, or neither does.
        const { user, oneTimePassword } = await createUser(
          tx,
          { email: DEMO_OWNER_EMAIL, name: 'Demo Owner' },
          now,
        );
        await upsertMembership(tx, workspace.id, user.id, 'owner', new Date(now));
        owner = { email: user.email, oneTimePassword: oneTimePassword as string };
      },
    );
  } catch (error) {
    if (isSlugTaken(error)) return undefined;
    throw error;
  }
  return { ...created, owner: owner as DemoOwner };
}

function isSlugTaken(error: unknown): boolean {
  if (error instanceof AppError) return error.code === 'validation_failed' && Boolean(error.errors?.slug);
  // The unique index caught a concurrent insert that the existence check could not see yet.
  return (error as { code?: unknown }).code === '23505';
}
