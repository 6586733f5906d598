import { HISTORY_ACTIONS } from '../bookings/booking-history.repository.js';
import type { presentBooking } from '../bookings/bookings.presenter.js';
import { manageToken } from '../bookings/manage-link.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { type BookingChange, planBookingMessages, staffEmailFor } from './booking-messages.rules.js';
import { type MailSnapshot, messageKey } from './mail-message.js';
import { dropRemindersBefore, insertMessages, type NewMessage } from './mail-queue.repository.js';
import { type NotificationSettings, settingsOf, staffEmailsOf } from './notification-settings.rules.js';
import { bookingLanguages, locationAddresses, stafferRecipients } from './notifications.repository.js';

/** The booking as an event carries it (as the API answers it): what the change left, at its revision. */
type EventBooking = ReturnType<typeof presentBooking>;

/** The last outbox event of a booking change: the change, its revision and the booking after it. */
export interface ChangeEvent {
  booking_id: string | null;
  /** The booking's event sequence after the change: its revision. */
  sequence: number;
  change: string | null;
  payload: Record<string, unknown>;
}

/**
 * The emails of booking changes, planned from the outbox events the changes
 * wrote, in the transaction that dispatches those events (outbox-handler.ts):
 * an event is dispatched once, so its emails are queued once, and they exist exactly when the
 * change committed, whichever surface made it (docs/decisions/0011-emails-from-the-outbox.md).
 * What a message says is the event's booking, as of its revision; the workspace's settings, the
 * staffer's address, the location's address and the language each booking was made in are read
 * here, one statement each for the batch.
 * `events` are one workspace's, in the order they were written.
 */
export async function queueChangeNotifications(
  tx: Tx,
  workspaceId: string,
  events: ChangeEvent[],
): Promise<void> {
  const changes = events.flatMap((event) => {
    const change = readChange(event);
    return change ? [change] : [];
  });
  if (changes.length === 0) return;
  const workspace = await findWorkspaceById(tx, workspaceId);
  if (!workspace) return;
  const settings = settingsOf(workspace.notification_settings);

  // The staffers who may hear of these changes: one read for the batch.
  const stafferIds = new Set<string>();
  for (const { change, booking } of changes) {
    if (booking.staffer && staffEmailFor(change)) stafferIds.add(booking.staffer.uuid);
  }
  const staffers = await stafferRecipients(tx, workspaceId, [...stafferIds]);

  const planned = changes.map((entry) => {
    const { change, booking, at, start } = entry;
    const staffer = booking.staffer ? staffers.get(booking.staffer.uuid) : undefined;
    const email = staffer?.user_email ?? staffer?.email;
    const plan = planBookingMessages({
      change,
      settings,
      customerEmail: (booking.customer.email ?? '').trim(),
      staff:
        staffer && email
          ? { stafferId: staffer.id, email, wants: staffEmailsOf(staffer.booking_emails) }
          : null,
      start,
      now: at,
    });
    return { ...entry, plan };
  });
  const withMessages = planned.filter((entry) => entry.plan.messages.length > 0);
  const locations = await locationAddresses(tx, workspaceId, [
    ...new Set(withMessages.map((entry) => entry.booking.location_uuid)),
  ]);

  const languages = await bookingLanguages(tx, workspaceId, [
    ...new Set(withMessages.map((entry) => entry.bookingId)),
  ]);

  const messages: NewMessage[] = [];
  for (const { booking, bookingId, revision, start, plan } of withMessages) {
    const base = snapshotOf(booking, workspace, settings, locations.get(booking.location_uuid));
    const language = languages.get(bookingId);
    if (language) base.language = language;
    for (const message of plan.messages) {
      messages.push({
        bookingId,
        kind: message.kind,
        revision,
        messageKey: messageKey({ bookingId, kind: message.kind, revision, variant: message.variant }),
        recipient: message.recipient,
        snapshot: {
          ...base,
          audience: message.audience,
          ...(message.reminderMinutes !== undefined ? { reminderMinutes: message.reminderMinutes } : {}),
        },
        dueAt: message.dueAt,
        startsAt: start,
      });
    }
  }
  const now = Math.max(...changes.map((entry) => entry.at));
  await insertMessages(tx, workspaceId, messages, now);
  // After the insert: a later change in this batch drops the reminders an earlier one planned.
  await dropRemindersBefore(
    tx,
    workspaceId,
    planned
      .filter((entry) => entry.plan.dropReminders)
      .map((entry) => ({ bookingId: entry.bookingId, revision: entry.revision })),
    now,
  );
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isInstant = (value: unknown) => isText(value) && !Number.isNaN(Date.parse(value));

/**
 * The change an event tells of, or undefined when it names none or its booking lacks what an
 * email says: the booking services write every field read here, so this guards against events
 * written by hand or by another version, which must not make the dispatcher fail every round.
 */
function readChange(event: ChangeEvent) {
  const change = event.change;
  const booking = (event.payload.data as { booking?: Partial<EventBooking> } | undefined)?.booking;
  const at = event.payload.timestamp;
  if (
    !change ||
    !(HISTORY_ACTIONS as readonly string[]).includes(change) ||
    event.booking_id === null ||
    !isInstant(at)
  )
    return undefined;
  if (!booking || !isUuid(booking.uuid) || booking.uuid !== event.booking_id) return undefined;
  if (!isUuid(booking.location_uuid)) return undefined;
  if (!isInstant(booking.start_time) || !isInstant(booking.end_time) || !isText(booking.timezone))
    return undefined;
  const { customer, staffer, ordered_services: lines } = booking;
  if (!customer || !isText(customer.phone) || !Array.isArray(lines)) return undefined;
  if (!isText(customer.first_name) || !isText(customer.last_name)) return undefined;
  if (customer.email !== null && !isText(customer.email)) return undefined;
  if (!lines.every((line) => isText(line?.name))) return undefined;
  if (staffer && !(isUuid(staffer.uuid) && isText(staffer.first_name) && isText(staffer.last_name)))
    return undefined;
  return {
    change: change as BookingChange,
    booking: booking as EventBooking,
    at: Date.parse(at as string),
    start: Date.parse(booking.start_time as string),
    revision: event.sequence,
    bookingId: event.booking_id,
  };
}

type WorkspaceRow = NonNullable<Awaited<ReturnType<typeof findWorkspaceById>>>;
type LocationAddress = ReturnType<Awaited<ReturnType<typeof locationAddresses>>['get']>;

/** What every message of one change says (the audience and reminder offset are the message's). */
export function snapshotOf(
  booking: EventBooking,
  workspace: WorkspaceRow,
  settings: NotificationSettings,
  location: LocationAddress,
): MailSnapshot {
  return {
    audience: 'customer',
    workspaceName: workspace.name,
    workspaceSlug: workspace.slug,
    locale: workspace.locale,
    senderName: settings.senderName,
    replyTo: settings.replyTo,
    bookingId: booking.uuid,
    manageToken: manageToken(workspace, booking.uuid),
    customerName: `${booking.customer.first_name} ${booking.customer.last_name}`.trim(),
    customerEmail: (booking.customer.email ?? '').trim(),
    customerPhone: booking.customer.phone,
    services: booking.ordered_services.map((line) => line.name).join(', '),
    staffer: booking.staffer ? `${booking.staffer.first_name} ${booking.staffer.last_name}`.trim() : null,
    location: location?.name ?? '',
    address: location
      ? [location.address_1, location.address_2, `${location.postal_code} ${location.city}`.trim()]
          .filter(Boolean)
          .join(', ')
      : '',
    zone: booking.timezone,
    start: new Date(booking.start_time).toISOString(),
    end: new Date(booking.end_time).toISOString(),
  };
}
