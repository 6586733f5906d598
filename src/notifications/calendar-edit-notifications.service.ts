import { presentBooking } from '../bookings/bookings.presenter.js';
import { findBookingView } from '../bookings/bookings.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { snapshotOf } from './booking-notifications.service.js';
import { messageKey } from './mail-message.js';
import { insertMessages } from './mail-queue.repository.js';
import { settingsOf, staffEmailsOf } from './notification-settings.rules.js';
import { locationAddresses, stafferRecipients } from './notifications.repository.js';

/**
 * The staffer is told when the event of one of their bookings was moved or deleted in their own
 * calendar (docs/calendar-sync.md "Edits read back"): one email to the staffer's address (their
 * linked member's, else their own), queued in the sync's transaction that records the edit. It
 * goes to staffers who get "changed bookings" emails; its key names the edit (`variant`), so the
 * same edit seen again by a later sync queues nothing, and a new edit queues a new email.
 */
export async function queueCalendarEditNotice(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  variant: string,
  now: number,
): Promise<void> {
  const view = await findBookingView(tx, workspaceId, bookingId);
  const workspace = await findWorkspaceById(tx, workspaceId);
  // A rental has no staffer, so no staffer's calendar was edited.
  if (!view || !workspace || view.staffer_id === null) return;
  const staffer = (await stafferRecipients(tx, workspaceId, [view.staffer_id])).get(view.staffer_id);
  const recipient = (staffer?.user_email ?? staffer?.email ?? '').trim();
  if (!staffer || recipient === '' || !staffEmailsOf(staffer.booking_emails).includes('changed')) return;
  const settings = settingsOf(workspace.notification_settings);
  // The links of the presented booking are not part of the email: no link base is needed.
  const booking = presentBooking(view, workspace, '');
  const locations = await locationAddresses(tx, workspaceId, [view.location_id]);
  const revision = view.event_sequence;
  await insertMessages(
    tx,
    workspaceId,
    [
      {
        bookingId,
        kind: 'staff_calendar_edit',
        revision,
        messageKey: messageKey({ bookingId, kind: 'staff_calendar_edit', revision, variant }),
        recipient,
        snapshot: {
          ...snapshotOf(booking, workspace, settings, locations.get(view.location_id)),
          audience: 'staff',
        },
        dueAt: now,
        startsAt: null,
      },
    ],
    now,
  );
}
