import { manageToken } from '../booking-page/manage-link.js';
import type { BookingView } from '../bookings/bookings.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { type BookingChange, planBookingMessages, staffEmailFor } from './booking-messages.rules.js';
import { type MailSnapshot, messageKey } from './mail-message.js';
import { dropPendingReminders, insertMessages } from './mail-queue.repository.js';
import { settingsOf, staffEmailsOf } from './notification-settings.rules.js';
import { linkedUserEmail, locationAddress } from './notifications.repository.js';

export interface BookingChangeNotice {
  workspace: WorkspaceRow;
  /** The booking as the change left it (read back in the change's transaction). */
  booking: BookingView;
  change: BookingChange;
  /** The booking's revision after the change (its event sequence). */
  revision: number;
  now: number;
  /** The booking's location when the caller has it at hand (a create does): one read fewer. */
  location?: LocationAddress;
}

type LocationAddress = NonNullable<Awaited<ReturnType<typeof locationAddress>>>;

/**
 * The emails of a booking change (issue 15 points 1-3), queued in the change's own transaction:
 * they commit with it or not at all, whichever surface made the change (API, panel, booking page,
 * CLI), since the booking services call this where they record the change's webhook events.
 * Costs nothing but a read of the workspace row already at hand when no email is due.
 */
export async function queueBookingNotifications(tx: Tx, notice: BookingChangeNotice): Promise<void> {
  const { workspace, booking, change, revision, now } = notice;
  const settings = settingsOf(workspace.notification_settings);
  const staff = await staffRecipient(tx, notice);
  const plan = planBookingMessages({
    change,
    settings,
    customerEmail: booking.customer_email.trim(),
    staff,
    start: booking.start_time.getTime(),
    now,
  });
  if (plan.dropReminders) await dropPendingReminders(tx, workspace.id, booking.id, now);
  if (plan.messages.length === 0) return;

  const location = notice.location ?? (await locationAddress(tx, workspace.id, booking.location_id));
  const base: MailSnapshot = {
    audience: 'customer',
    workspaceName: workspace.name,
    workspaceSlug: workspace.slug,
    locale: workspace.locale,
    senderName: settings.senderName,
    replyTo: settings.replyTo,
    bookingId: booking.id,
    manageToken: manageToken(workspace, booking.id),
    customerName: `${booking.customer_first_name} ${booking.customer_last_name}`.trim(),
    customerEmail: booking.customer_email.trim(),
    customerPhone: booking.customer_phone,
    services: booking.lines.map((line) => line.name).join(', '),
    staffer:
      booking.staffer_first_name === null
        ? null
        : `${booking.staffer_first_name} ${booking.staffer_last_name ?? ''}`.trim(),
    location: location?.name ?? '',
    address: location
      ? [location.address_1, location.address_2, `${location.postal_code} ${location.city}`.trim()]
          .filter(Boolean)
          .join(', ')
      : '',
    zone: booking.timezone,
    start: booking.start_time.toISOString(),
    end: booking.end_time.toISOString(),
  };
  await insertMessages(
    tx,
    plan.messages.map((message) => ({
      workspaceId: workspace.id,
      bookingId: booking.id,
      kind: message.kind,
      revision,
      messageKey: messageKey({
        bookingId: booking.id,
        kind: message.kind,
        revision,
        variant: message.variant,
      }),
      recipient: message.recipient,
      snapshot: {
        ...base,
        audience: message.audience,
        ...(message.reminderMinutes !== undefined ? { reminderMinutes: message.reminderMinutes } : {}),
      },
      dueAt: message.dueAt,
      startsAt: booking.start_time.getTime(),
    })),
    now,
  );
}

/**
 * Where the booking's staffer gets this change, if it wants it: the linked panel user's address
 * while that user is a member of the workspace, else the staffer's own. Reads only when needed.
 */
async function staffRecipient(tx: Tx, notice: BookingChangeNotice) {
  const { booking, change } = notice;
  const kind = staffEmailFor(change);
  const wants = staffEmailsOf(booking.staffer_booking_emails);
  if (!kind || !wants.includes(kind) || (!booking.staffer_user_id && !booking.staffer_email)) return null;
  const email =
    (booking.staffer_user_id
      ? await linkedUserEmail(tx, notice.workspace.id, booking.staffer_user_id)
      : undefined) ?? booking.staffer_email;
  return email ? { stafferId: booking.staffer_id, email, wants } : null;
}
