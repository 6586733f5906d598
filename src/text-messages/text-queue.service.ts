import { HISTORY_ACTIONS, type HistoryAction } from '../bookings/booking-history.repository.js';
import { manageToken } from '../bookings/manage-link.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { quietHoursOf } from './quiet-hours.rules.js';
import {
  bookingTextFacts,
  dropTextRemindersBefore,
  insertTexts,
  locationQuietHours,
  type NewText,
} from './text-messages.repository.js';
import { planBookingTexts, textKey } from './text-plan.rules.js';
import { textSettingsOf } from './text-settings.rules.js';

/** The last outbox event of a booking change (as the dispatcher hands it). */
export interface TextChangeEvent {
  booking_id: string | null;
  sequence: number;
  change: string | null;
  payload: Record<string, unknown>;
}

interface EventBooking {
  uuid: string;
  location_uuid: string;
  start_time: string;
  timezone: string;
  customer: { phone: string };
  ordered_services: { name: string }[];
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The change an event tells of, or undefined when it lacks what a text says (an event by hand, another version). */
function readChange(event: TextChangeEvent) {
  const at = event.payload.timestamp;
  const booking = (event.payload.data as { booking?: Partial<EventBooking> } | undefined)?.booking;
  if (!event.change || !(HISTORY_ACTIONS as readonly string[]).includes(event.change)) return undefined;
  if (event.booking_id === null || !isText(at) || Number.isNaN(Date.parse(at))) return undefined;
  if (!booking || booking.uuid !== event.booking_id || !isUuid(booking.location_uuid)) return undefined;
  if (
    !isText(booking.start_time) ||
    Number.isNaN(Date.parse(booking.start_time)) ||
    !isText(booking.timezone)
  )
    return undefined;
  if (!booking.customer || !isText(booking.customer.phone) || !Array.isArray(booking.ordered_services))
    return undefined;
  return {
    change: event.change as HistoryAction,
    booking: booking as EventBooking,
    bookingId: event.booking_id,
    revision: event.sequence,
    at: Date.parse(at),
    start: Date.parse(booking.start_time),
  };
}

/**
 * The texts of booking changes, planned from the outbox events in the transaction that dispatches
 * them (outbox-handler.ts): an event is dispatched once, and each text has a unique key besides, so
 * a change's text of a kind is queued exactly once. The body is rendered when it is sent, from the
 * snapshot kept here.
 */
export async function queueChangeTexts(
  tx: Tx,
  workspaceId: string,
  events: TextChangeEvent[],
): Promise<void> {
  const changes = events.flatMap((event) => {
    const change = readChange(event);
    return change ? [change] : [];
  });
  if (changes.length === 0) return;
  const workspace = await findWorkspaceById(tx, workspaceId);
  if (!workspace) return;
  const settings = textSettingsOf(workspace.text_settings);
  const now = Math.max(...changes.map((entry) => entry.at));
  if (!settings.enabled) {
    // Nothing new is sent, but reminders queued while texts were on still follow their booking.
    await dropTextRemindersBefore(
      tx,
      workspaceId,
      changes.map((entry) => ({ bookingId: entry.bookingId, revision: entry.revision })),
      now,
    );
    return;
  }
  const [locations, facts] = await Promise.all([
    locationQuietHours(tx, workspaceId, [...new Set(changes.map((entry) => entry.booking.location_uuid))]),
    bookingTextFacts(tx, workspaceId, [...new Set(changes.map((entry) => entry.bookingId))]),
  ]);
  const texts: NewText[] = [];
  const drops: { bookingId: string; revision: number }[] = [];
  for (const { change, booking, bookingId, revision, at, start } of changes) {
    const location = locations.get(booking.location_uuid);
    const fact = facts.get(bookingId);
    const plan = planBookingTexts({
      change,
      settings,
      phone: booking.customer.phone,
      consent: fact?.consent ?? null,
      start,
      now: at,
      zone: location?.zone ?? booking.timezone,
      quiet: quietHoursOf(location?.quiet),
    });
    if (plan.dropReminders) drops.push({ bookingId, revision });
    for (const text of plan.texts) {
      texts.push({
        bookingId,
        kind: text.kind,
        revision,
        messageKey: textKey(bookingId, text.kind, revision, text.variant),
        channel: settings.whatsapp ? 'whatsapp' : 'sms',
        recipient: booking.customer.phone,
        provider: settings.provider,
        snapshot: {
          workspaceName: workspace.name,
          workspaceSlug: workspace.slug,
          locale: workspace.locale,
          language: fact?.language ?? null,
          manageToken: manageToken(workspace, bookingId),
          services: booking.ordered_services.map((line) => line.name).join(', '),
          location: location ? [location.name, location.address].filter(Boolean).join(', ') : '',
          zone: booking.timezone,
          start: new Date(start).toISOString(),
        },
        dueAt: text.dueAt,
        startsAt: start,
      });
    }
  }
  await insertTexts(tx, workspaceId, texts, now);
  // After the insert: a later change in this batch drops the reminders an earlier one planned.
  await dropTextRemindersBefore(tx, workspaceId, drops, now);
}
