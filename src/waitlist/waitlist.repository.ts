import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type {
  WaitlistEntriesTable,
  WaitlistEntryState,
  WaitlistOfferState,
  WaitlistOffersTable,
  WaitlistWindowJson,
} from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/** Every statement of the waitlist (migrations/0039_waitlist.sql). */

export type EntryRow = Selectable<WaitlistEntriesTable>;
export type OfferRow = Selectable<WaitlistOffersTable>;

/** An entry with who is waiting. */
export interface EntryView extends EntryRow {
  customer_phone: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
}

export async function insertEntry(
  tx: Tx,
  values: {
    workspaceId: string;
    customerId: string;
    locationId: string;
    serviceId: string;
    stafferId: string | null;
    windows: WaitlistWindowJson[];
    anyTime: boolean;
    language: string | null;
    source: string;
    joinedAt: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('waitlist_entries')
    .values({
      workspace_id: values.workspaceId,
      customer_id: values.customerId,
      location_id: values.locationId,
      service_id: values.serviceId,
      staffer_id: values.stafferId,
      windows: JSON.stringify(values.windows),
      any_time: values.anyTime,
      language: values.language,
      source: values.source,
      joined_at: values.joinedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function entriesWithCustomer(db: Db, workspaceId: string) {
  return db
    .selectFrom('waitlist_entries as e')
    .innerJoin('customers as c', (join) =>
      join.onRef('c.workspace_id', '=', 'e.workspace_id').onRef('c.id', '=', 'e.customer_id'),
    )
    .selectAll('e')
    .select([
      'c.phone as customer_phone',
      'c.first_name as customer_first_name',
      'c.last_name as customer_last_name',
      'c.email as customer_email',
    ])
    .where('e.workspace_id', '=', workspaceId);
}

export async function findEntry(db: Db, workspaceId: string, id: string): Promise<EntryView | undefined> {
  return entriesWithCustomer(db, workspaceId).where('e.id', '=', id).executeTakeFirst();
}

/** Entries in line order (joined first), filtered; `states` defaults to those still in line. */
export async function listEntries(
  db: Db,
  workspaceId: string,
  filter: {
    serviceId?: string | undefined;
    stafferId?: string | undefined;
    locationId?: string | undefined;
    customerId?: string | undefined;
    states?: WaitlistEntryState[] | undefined;
  },
  page: { limit: number; offset: number } = { limit: 500, offset: 0 },
): Promise<EntryView[]> {
  let query = entriesWithCustomer(db, workspaceId);
  if (filter.serviceId) query = query.where('e.service_id', '=', filter.serviceId);
  if (filter.stafferId) query = query.where('e.staffer_id', '=', filter.stafferId);
  if (filter.locationId) query = query.where('e.location_id', '=', filter.locationId);
  if (filter.customerId) query = query.where('e.customer_id', '=', filter.customerId);
  const states = filter.states ?? ['waiting', 'offered'];
  return query
    .where('e.state', 'in', states)
    .orderBy('e.joined_at')
    .orderBy('e.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Locks an entry for a change of its state (a claim, leaving, an offer by hand). */
export async function lockEntry(tx: Tx, workspaceId: string, id: string): Promise<EntryRow | undefined> {
  return tx
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function setEntryState(
  tx: Tx,
  workspaceId: string,
  ids: string[],
  state: WaitlistEntryState,
  at: Date,
  bookingId: string | null = null,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .updateTable('waitlist_entries')
    .set({ state, updated_at: at, ...(bookingId ? { booking_id: bookingId } : {}) })
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * The entries still waiting for a service at a location that had no offer of this start yet (an
 * entry whose offer of it expired, or who refused it, is not asked again), in line order.
 */
export async function waitingWithoutOfferOf(
  tx: Tx,
  workspaceId: string,
  time: { locationId: string; serviceId: string; start: Date },
): Promise<EntryRow[]> {
  const offered = await tx
    .selectFrom('waitlist_offers')
    .select('entry_id')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', time.serviceId)
    .where('starts_at', '=', time.start)
    .execute();
  const seen = new Set(offered.map((row) => row.entry_id));
  const rows = await tx
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', time.serviceId)
    .where('location_id', '=', time.locationId)
    .where('state', '=', 'waiting')
    .orderBy('joined_at')
    .orderBy('id')
    .execute();
  return rows.filter((row) => !seen.has(row.id));
}

/** Whether the waitlist holds this time for someone now (an open offer of it). */
export async function hasOpenOfferOf(
  db: Db,
  workspaceId: string,
  time: { serviceId: string; stafferId: string; start: Date },
): Promise<boolean> {
  const row = await db
    .selectFrom('waitlist_offers')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', time.serviceId)
    .where('staffer_id', '=', time.stafferId)
    .where('starts_at', '=', time.start)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertOffer(
  tx: Tx,
  values: {
    id: string;
    workspaceId: string;
    entryId: string;
    locationId: string;
    serviceId: string;
    stafferId: string;
    start: Date;
    heldUntil: Date;
    tokenHash: string;
    madeBy: 'freed' | 'staff' | 'auto';
    at: Date;
  },
): Promise<OfferRow> {
  return tx
    .insertInto('waitlist_offers')
    .values({
      id: values.id,
      workspace_id: values.workspaceId,
      entry_id: values.entryId,
      location_id: values.locationId,
      service_id: values.serviceId,
      staffer_id: values.stafferId,
      starts_at: values.start,
      held_until: values.heldUntil,
      token_hash: values.tokenHash,
      made_by: values.madeBy,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findOffer(db: Db, workspaceId: string, id: string): Promise<OfferRow | undefined> {
  return db
    .selectFrom('waitlist_offers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The claim's guard: the offer turns from open to claimed only once. A second claim running at
 * the same time waits on the row lock and then finds it no longer open (no row): one booking.
 */
export async function claimOpenOffer(
  tx: Tx,
  workspaceId: string,
  id: string,
  tokenHash: string,
  now: Date,
  kind: 'offered' | 'auto',
): Promise<OfferRow | undefined> {
  return (
    tx
      .updateTable('waitlist_offers')
      .set((eb) => ({ state: 'claimed', updated_at: now, event_sequence: eb('event_sequence', '+', 1) }))
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('token_hash', '=', tokenHash)
      // A link claims an offer sent to a person; the round claims the ones it books itself.
      .where('made_by', kind === 'auto' ? '=' : '<>', 'auto')
      .where('state', '=', 'open')
      .where('held_until', '>', now)
      .returningAll()
      .executeTakeFirst()
  );
}

export async function setOfferBooking(
  tx: Tx,
  workspaceId: string,
  id: string,
  bookingId: string,
): Promise<void> {
  await tx
    .updateTable('waitlist_offers')
    .set({ booking_id: bookingId })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Open offers turned to `state` (their sequence bumped for the event), answered as changed. */
export async function closeOpenOffers(
  tx: Tx,
  workspaceId: string,
  where: { ids?: string[]; entryId?: string; dueAt?: Date; sameTimeAs?: OfferRow },
  state: Exclude<WaitlistOfferState, 'open' | 'claimed'>,
  now: Date,
): Promise<OfferRow[]> {
  let query = tx
    .updateTable('waitlist_offers')
    .set((eb) => ({ state, updated_at: now, event_sequence: eb('event_sequence', '+', 1) }))
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'open');
  if (where.ids) {
    if (where.ids.length === 0) return [];
    query = query.where('id', 'in', where.ids);
  }
  if (where.entryId) query = query.where('entry_id', '=', where.entryId);
  if (where.dueAt) query = query.where('held_until', '<=', where.dueAt);
  if (where.sameTimeAs) {
    query = query
      .where('service_id', '=', where.sameTimeAs.service_id)
      .where('starts_at', '=', where.sameTimeAs.starts_at)
      .where('id', '<>', where.sameTimeAs.id);
  }
  return query.returningAll().execute();
}

/** Workspaces with open offers whose hold ended by `now` (the periodic round's work). */
export async function workspacesWithDueOffers(db: Db, now: Date, limit = 50): Promise<string[]> {
  const rows = await db
    .selectFrom('waitlist_offers')
    .select('workspace_id')
    .distinct()
    .where('state', '=', 'open')
    .where('held_until', '<=', now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.workspace_id);
}

/**
 * Workspaces with open offers to be claimed automatically (a group-class seat filled from the
 * line, made_by 'auto'), still within their hold.
 */
export async function workspacesWithAutoOffers(db: Db, now: Date, limit = 50): Promise<string[]> {
  const rows = await db
    .selectFrom('waitlist_offers')
    .select('workspace_id')
    .distinct()
    .where('state', '=', 'open')
    .where('made_by', '=', 'auto')
    .where('held_until', '>', now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.workspace_id);
}

/** A workspace's open offers to be claimed automatically, oldest first. */
export async function openAutoOffers(
  db: Db,
  workspaceId: string,
  now: Date,
  limit: number,
): Promise<OfferRow[]> {
  return db
    .selectFrom('waitlist_offers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'open')
    .where('made_by', '=', 'auto')
    .where('held_until', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Offers, newest first, filtered. */
export async function listOffers(
  db: Db,
  workspaceId: string,
  filter: {
    entryId?: string | undefined;
    serviceId?: string | undefined;
    state?: WaitlistOfferState | undefined;
  },
  limit = 200,
): Promise<OfferRow[]> {
  let query = db.selectFrom('waitlist_offers').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.entryId) query = query.where('entry_id', '=', filter.entryId);
  if (filter.serviceId) query = query.where('service_id', '=', filter.serviceId);
  if (filter.state) query = query.where('state', '=', filter.state);
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

/** Whether the staffer gives the service at the location. */
export async function stafferGives(
  db: Db,
  workspaceId: string,
  stafferId: string,
  locationId: string,
  serviceId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('staffer_services')
    .select('staffer_id')
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .where('location_id', '=', locationId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A booking's start before its last reschedule, from its history (the time a reschedule freed). */
export async function startBeforeLastReschedule(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('booking_history')
    .select('changes')
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .where('action', '=', 'rescheduled')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const from = (row?.changes as { start_time?: { from?: unknown } } | undefined)?.start_time?.from;
  return typeof from === 'string' ? from : undefined;
}

/** What a freed booking held: its place, first service, staffer and start. */
export async function bookingPlace(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<{ locationId: string; serviceId: string; stafferId: string | null; start: Date } | undefined> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('booking_services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.booking_id', '=', 'b.id'),
    )
    .select(['b.location_id', 'b.staffer_id', 'b.start_time', 's.service_id'])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.id', '=', bookingId)
    .orderBy('s.position')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    locationId: row.location_id,
    serviceId: row.service_id,
    stafferId: row.staffer_id,
    start: row.start_time,
  };
}

/** What an offer's email and text say: who, what, with whom, where. */
export async function offerDetails(db: Db, workspaceId: string, offerId: string) {
  return db
    .selectFrom('waitlist_offers as o')
    .innerJoin('waitlist_entries as e', (join) =>
      join.onRef('e.workspace_id', '=', 'o.workspace_id').onRef('e.id', '=', 'o.entry_id'),
    )
    .innerJoin('customers as c', (join) =>
      join.onRef('c.workspace_id', '=', 'e.workspace_id').onRef('c.id', '=', 'e.customer_id'),
    )
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'o.workspace_id').onRef('l.id', '=', 'o.location_id'),
    )
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'o.workspace_id').onRef('s.id', '=', 'o.service_id'),
    )
    .leftJoin('staffers as st', (join) =>
      join.onRef('st.workspace_id', '=', 'o.workspace_id').onRef('st.id', '=', 'o.staffer_id'),
    )
    .select([
      'o.id',
      'o.starts_at',
      'o.held_until',
      'o.state',
      'e.language',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone',
      'l.name as location_name',
      'l.address_1',
      'l.address_2',
      'l.postal_code',
      'l.city',
      'l.timezone',
      's.name as service_name',
      's.duration_minutes',
      's.price',
      'st.first_name as staffer_first_name',
      'st.last_name as staffer_last_name',
    ])
    .where('o.workspace_id', '=', workspaceId)
    .where('o.id', '=', offerId)
    .executeTakeFirst();
}

/** The live services and staffers of the workspace, by name (the panel's filters and names). */
export async function namesForPanel(db: Db, workspaceId: string) {
  const [services, staffers, locations] = await Promise.all([
    db
      .selectFrom('services')
      .select(['id', 'name'])
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('staffers')
      .select(['id', 'first_name', 'last_name'])
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .orderBy('first_name')
      .orderBy('last_name')
      .execute(),
    db
      .selectFrom('locations')
      .select(['id', 'name', 'timezone', 'archived_at'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('name')
      .execute(),
  ]);
  return {
    zones: new Map(locations.map((l) => [l.id, l.timezone])),
    locations: locations.filter((l) => l.archived_at === null).map((l) => ({ id: l.id, name: l.name })),
    services,
    staffers: staffers.map((s) => ({ id: s.id, name: `${s.first_name} ${s.last_name}`.trim() })),
  };
}

/**
 * The entries still waiting (no open offer) at a location for a service the staffer gives there,
 * that named this staffer or none, in line order, at most `limit`: those a change of the
 * staffer's hours may have opened a time for.
 */
export async function waitingForStaffer(
  tx: Tx,
  workspaceId: string,
  place: { locationId: string; stafferId: string },
  limit: number,
): Promise<EntryRow[]> {
  return tx
    .selectFrom('waitlist_entries as e')
    .innerJoin('staffer_services as ss', (join) =>
      join
        .onRef('ss.workspace_id', '=', 'e.workspace_id')
        .onRef('ss.service_id', '=', 'e.service_id')
        .onRef('ss.location_id', '=', 'e.location_id'),
    )
    .selectAll('e')
    .where('e.workspace_id', '=', workspaceId)
    .where('ss.workspace_id', '=', workspaceId)
    .where('e.location_id', '=', place.locationId)
    .where('ss.staffer_id', '=', place.stafferId)
    .where('e.state', '=', 'waiting')
    .where((eb) => eb.or([eb('e.staffer_id', 'is', null), eb('e.staffer_id', '=', place.stafferId)]))
    .orderBy('e.joined_at')
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** The starts (epoch ms) each of these entries was ever offered, of any state: not offered again. */
export async function offeredStartsOf(
  tx: Tx,
  workspaceId: string,
  entryIds: readonly string[],
): Promise<Map<string, Set<number>>> {
  const seen = new Map<string, Set<number>>();
  if (entryIds.length === 0) return seen;
  const rows = await tx
    .selectFrom('waitlist_offers')
    .select(['entry_id', 'starts_at'])
    .where('workspace_id', '=', workspaceId)
    .where('entry_id', 'in', [...entryIds])
    .execute();
  for (const row of rows) {
    const starts = seen.get(row.entry_id) ?? new Set<number>();
    starts.add(new Date(row.starts_at).getTime());
    seen.set(row.entry_id, starts);
  }
  return seen;
}

/** The starts (epoch ms) of the open offers of a service with a staffer: times held for someone. */
export async function heldStartsOf(
  tx: Tx,
  workspaceId: string,
  time: { serviceId: string; stafferId: string },
): Promise<Set<number>> {
  const rows = await tx
    .selectFrom('waitlist_offers')
    .select('starts_at')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', time.serviceId)
    .where('staffer_id', '=', time.stafferId)
    .where('state', '=', 'open')
    .execute();
  return new Set(rows.map((row) => new Date(row.starts_at).getTime()));
}
