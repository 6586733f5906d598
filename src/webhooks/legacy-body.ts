import { sql } from 'kysely';
import { bookingPolicy } from '../bookings/booking-links.js';
import type { BookingJson } from '../bookings/bookings.presenter.js';
import { manageToken } from '../bookings/manage-link.js';
import type { Db } from '../platform/db/client.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/**
 * The flat webhook body of the real service (docs/webhooks.md field by field), sent
 * to webhooks whose `format` is `legacy`. It is made from the event's booking (as of the event)
 * plus what only the store knows: integer ids, the customer's visit count, the workspace's
 * locale and name. No envelope and no event type: receivers put the event in their URL's query.
 */
export interface LegacyFacts {
  workspace: WorkspaceRow;
  bookingIntId: number;
  customerIntId: number;
  locationIntId: number;
  locationName: string;
  /** Integer id of the first service of the booking; null if it has none. */
  serviceIntId: number | null;
  visitsTotal: number;
}

/** 'YYYY-MM-DD HH:MM:SS+0000' from a UTC ISO instant ('2026-09-10T12:00:00Z'). */
export function legacyInstant(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}+0000`;
}

/** An instant as a reader sees it: the location's zone, the workspace's locale ("Sep 10, 2026, 3:00 PM"). */
export function legacyLocalTime(iso: string, zone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
    Date.parse(iso),
  );
}

/** A length in the workspace's locale: "1 hr 30 min", "45 min" ("1 Std. 30 Min." in German). */
export function legacyDuration(minutes: number, locale: string): string {
  const unit = (value: number, name: 'hour' | 'minute') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours > 0 ? unit(hours, 'hour') : '', rest > 0 || hours === 0 ? unit(rest, 'minute') : '']
    .filter((part) => part !== '')
    .join(' ');
}

/** Minor units as the currency's major units (9050 EUR -> 90.5; 900 JPY -> 900). */
export function majorUnits(minor: number, currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return minor / 10 ** digits;
}

const BUILT_IN_LABELS: Record<string, Record<string, string>> = {
  en: { new: 'New', confirmed: 'Confirmed', completed: 'Completed', canceled: 'Canceled' },
  de: { new: 'Neu', confirmed: 'Bestätigt', completed: 'Abgeschlossen', canceled: 'Storniert' },
  fr: { new: 'Nouveau', confirmed: 'Confirmé', completed: 'Terminé', canceled: 'Annulé' },
  es: { new: 'Nuevo', confirmed: 'Confirmado', completed: 'Completado', canceled: 'Cancelado' },
  it: { new: 'Nuovo', confirmed: 'Confermato', completed: 'Completato', canceled: 'Annullato' },
  nl: { new: 'Nieuw', confirmed: 'Bevestigd', completed: 'Voltooid', canceled: 'Geannuleerd' },
  pl: { new: 'Nowa', confirmed: 'Potwierdzona', completed: 'Zakończona', canceled: 'Anulowana' },
  pt: { new: 'Nova', confirmed: 'Confirmada', completed: 'Concluída', canceled: 'Cancelada' },
  uk: { new: 'Нова', confirmed: 'Підтверджена', completed: 'Завершена', canceled: 'Скасована' },
  ru: { new: 'Новая', confirmed: 'Подтверждена', completed: 'Завершена', canceled: 'Отменена' },
};

/**
 * The status as a label in the workspace's locale. A status still carrying its built-in English
 * name (New, Confirmed, Completed, Canceled) is translated; a name the business gave is theirs.
 */
export function statusLabel(status: { name: string; type: string }, locale: string): string {
  const english = BUILT_IN_LABELS.en![status.type];
  if (english === undefined || status.name !== english) return status.name;
  const language = locale.split('-')[0]!.toLowerCase();
  return BUILT_IN_LABELS[language]?.[status.type] ?? status.name;
}

export function legacyBody(booking: BookingJson, facts: LegacyFacts): Record<string, unknown> {
  const { customer, staffer, ordered_services: lines, order } = booking;
  const fullName = [customer.first_name, customer.last_name].filter((part) => part !== '').join(' ');
  // The event's booking carries its links as they were made at the write (under the app's link
  // base); an event written before links existed has none, and the body then says null.
  const manage = (booking.links ?? []).find((link) => link.type === 'manage');
  const policy = bookingPolicy(facts.workspace, Date.parse(booking.start_time));
  return {
    id: facts.bookingIntId,
    uid: booking.uuid,
    booking_hash_id: manage ? manageToken(facts.workspace, booking.uuid) : null,
    booking_page: manage?.link ?? null,
    booking_created_at: legacyInstant(booking.created_at),
    booking_date_start: legacyInstant(booking.start_time),
    booking_date_end: legacyInstant(booking.end_time),
    booking_date_end_formatted: legacyLocalTime(booking.end_time, booking.timezone, facts.workspace.locale),
    booking_date_start_local: booking.start_time_local,
    booking_timezone: booking.timezone,
    booking_duration: booking.duration.value,
    booking_duration_formatted: legacyDuration(booking.duration.value, facts.workspace.locale),
    booking_status: statusLabel(booking.status, facts.workspace.locale),
    booking_status_type: booking.status.type,
    booking_price: majorUnits(order.total, order.currency),
    booking_price_int: order.total,
    booking_price_formatted: order.total_formatted,
    booking_currency: order.currency,
    booking_cancel_until: legacyInstant(policy.cancel_until),
    booking_source: booking.source,
    'booking_attributes.booking_comment': booking.booking_comment,
    'booking_attributes.booking_callback': booking.booking_callback,
    'booking_attributes.source': booking.source,
    'booking_attributes.cancel_reason': booking.cancel_reason,
    company_name: facts.workspace.name,
    location_id: facts.locationIntId,
    location_uid: booking.location_uuid,
    location_name: facts.locationName,
    customer_id: facts.customerIntId,
    customer_uid: customer.uuid,
    customer_full_name: fullName,
    customer_name: fullName,
    customer_first_name: customer.first_name,
    customer_last_name: customer.last_name,
    customer_phone: customer.phone,
    customer_email: customer.email,
    customer_comment: booking.booking_comment,
    service_id: facts.serviceIntId,
    service_uid: lines[0]?.service_uuid ?? null,
    service_name: lines[0]?.name ?? '',
    services_count: lines.length,
    services_description: lines.map((line) => `${line.name} (${line.duration.value} min)`).join('; '),
    user_name: staffer ? [staffer.first_name, staffer.last_name].filter((part) => part !== '').join(' ') : '',
    user_uid: staffer?.uuid ?? null,
    visits_total: facts.visitsTotal,
    // Not in the real service's body: the rooms, chairs and equipment the booking holds
    // (docs/resources.md). An event written before resources existed has none.
    resource_uids: (booking.resources ?? []).map((unit) => unit.uuid),
    resources_description: (booking.resources ?? []).map((unit) => unit.name).join(', '),
  };
}

interface LegacyEvent {
  workspace_id: string;
  id: string;
  payload: { data?: { booking?: BookingJson | null } };
}

/**
 * Legacy bodies of these outbox events, by event id: one statement reads the facts of all their
 * bookings. Events without a booking get none (the caller keeps the standard body).
 */
export async function legacyBodies(tx: Db, events: LegacyEvent[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const withBooking = events.filter((event) => event.payload.data?.booking);
  if (withBooking.length === 0) return bodies;
  const bookingIds = [...new Set(withBooking.map((event) => event.payload.data!.booking!.uuid))];
  const workspaceIds = [...new Set(withBooking.map((event) => event.workspace_id))];
  const rows = await tx
    .selectFrom('bookings as b')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .innerJoin('locations as l', (j) =>
      j.onRef('l.workspace_id', '=', 'b.workspace_id').onRef('l.id', '=', 'b.location_id'),
    )
    .select([
      'b.workspace_id',
      'b.id',
      'b.int_id as booking_int',
      'c.int_id as customer_int',
      'l.int_id as location_int',
      'l.name as location_name',
      // Bookings up to and including this one: the same number whenever the body is made.
      sql<number>`(SELECT count(*) FROM bookings v WHERE v.workspace_id = b.workspace_id
        AND v.customer_id = b.customer_id AND v.created_at <= b.created_at)`.as('visits'),
      sql<number | null>`(SELECT s.int_id FROM booking_services bs JOIN services s
        ON s.workspace_id = bs.workspace_id AND s.id = bs.service_id
        WHERE bs.workspace_id = b.workspace_id AND bs.booking_id = b.id ORDER BY bs.position, bs.id LIMIT 1)`.as(
        'service_int',
      ),
    ])
    .where('b.workspace_id', 'in', workspaceIds)
    .where('b.id', 'in', bookingIds)
    .execute();
  const workspaces = await tx.selectFrom('workspaces').selectAll().where('id', 'in', workspaceIds).execute();
  const workspaceById = new Map(workspaces.map((w) => [w.id, w]));
  const factsOf = new Map(rows.map((row) => [`${row.workspace_id} ${row.id}`, row]));
  for (const event of withBooking) {
    const booking = event.payload.data!.booking!;
    const row = factsOf.get(`${event.workspace_id} ${booking.uuid}`);
    const workspace = workspaceById.get(event.workspace_id);
    if (!row || !workspace) continue;
    const body = legacyBody(booking, {
      workspace,
      bookingIntId: Number(row.booking_int),
      customerIntId: Number(row.customer_int),
      locationIntId: Number(row.location_int),
      locationName: row.location_name,
      serviceIntId: row.service_int === null ? null : Number(row.service_int),
      visitsTotal: Number(row.visits),
    });
    bodies.set(event.id, JSON.stringify(body));
  }
  return bodies;
}
