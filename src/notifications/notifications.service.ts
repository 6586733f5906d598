import { randomUUID } from 'node:crypto';
import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import { conflict, type FieldErrors, notFound, validationFailed } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { type MailSnapshot, messageKey } from './mail-message.js';
import { findMessage, insertMessages, listMailLog } from './mail-queue.repository.js';
import {
  checkSettings,
  isEmailAddress,
  type NotificationSettings,
  type SettingsInput,
  STAFF_EMAILS,
  settingsOf,
  storedSettings,
} from './notification-settings.rules.js';
import {
  listMembers,
  listStafferRecipients,
  lockMemberLink,
  saveNotificationSettings,
  setStafferMember,
  updateStafferRecipient,
} from './notifications.repository.js';

/** Settings → Notifications: which emails, reminder times, sender name, reply-to (422 with field errors). */
export async function updateNotificationSettings(
  uow: UnitOfWork,
  workspaceId: string,
  input: SettingsInput,
  now: number,
  actor: AuditActor,
): Promise<NotificationSettings> {
  const { settings, errors } = checkSettings(input);
  if (!settings) throw validationFailed(errors);
  await uow.run(workspaceId, async (tx) => {
    await saveNotificationSettings(tx, workspaceId, storedSettings(settings), now);
    await recordAudit(tx, workspaceId, actor, 'settings.notifications_updated', workspaceId, {
      customer_emails: settings.customerEmails,
      reminder_minutes: settings.reminderMinutes,
    });
  });
  return settings;
}

/**
 * Resend from the mail log: a new message with the same content and its own Message-ID (the
 * first one may have arrived and been lost, so the receiving side must not take this one for a
 * duplicate). Refused while the message is still queued, and for reminders that were replaced
 * or came too late.
 */
export async function resendMessage(
  uow: UnitOfWork,
  workspaceId: string,
  messageId: string,
  now: number,
): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    const message = await findMessage(tx, workspaceId, messageId);
    if (!message) throw notFound('Email');
    if (message.state === 'pending' || message.state === 'sending')
      throw conflict('mail_queued', 'This email is still queued; it goes out on its own.');
    if (message.state === 'dropped' || message.state === 'expired')
      throw conflict('mail_outdated', 'This reminder was replaced or came too late; it is not sent again.');
    await insertMessages(
      tx,
      workspaceId,
      [
        {
          bookingId: message.booking_id,
          kind: message.kind,
          revision: message.revision,
          messageKey: `${message.message_key}.resend-${randomUUID().slice(0, 8)}`,
          recipient: message.recipient,
          snapshot: message.snapshot as unknown as MailSnapshot,
          dueAt: now,
          startsAt: message.starts_at?.getTime() ?? null,
        },
      ],
      now,
    );
  });
}

/** "Send me a test email": queued like any other, so it shows the whole path works. */
export async function sendTestEmail(
  uow: UnitOfWork,
  workspace: WorkspaceRow,
  to: string,
  now: number,
): Promise<void> {
  const settings = settingsOf(workspace.notification_settings);
  const snapshot: MailSnapshot = {
    audience: 'test',
    workspaceName: workspace.name,
    workspaceSlug: workspace.slug,
    locale: workspace.locale,
    senderName: settings.senderName,
    replyTo: settings.replyTo,
    bookingId: null,
    manageToken: null,
    customerName: '',
    customerEmail: '',
    customerPhone: '',
    services: '',
    staffer: null,
    location: '',
    address: '',
    zone: 'UTC',
    start: new Date(now).toISOString(),
    end: new Date(now).toISOString(),
  };
  await uow.run(workspace.id, (tx) =>
    insertMessages(
      tx,
      workspace.id,
      [
        {
          bookingId: null,
          kind: 'test',
          revision: 0,
          messageKey: messageKey({ bookingId: null, kind: 'test', revision: 0, variant: randomUUID() }),
          recipient: to,
          snapshot,
          dueAt: now,
          startsAt: null,
        },
      ],
      now,
    ),
  );
}

export interface StafferRecipientInput {
  /** '' for none. */
  email: string;
  /**
   * '' for none; else a member of the workspace, who then is this staffer (memberships.staffer_id,
   * the one link): they get its booking emails, and it is their own calendar column and feed.
   */
  userId: string;
  bookingEmails: string[];
}

/**
 * Owners and admins: where a staffer's booking emails go (the member who is the staffer, or an
 * address). Choosing the member sets the one user–staffer link: the staffer's previous member is
 * no longer it. A member who is already another live staffer is refused (422 on user_id) rather
 * than moved, so no other staffer loses its member unseen; a link to an archived staffer moves.
 */
export async function updateStafferRecipients(
  uow: UnitOfWork,
  workspaceId: string,
  stafferId: string,
  input: StafferRecipientInput,
  now: number,
  actor: AuditActor,
): Promise<void> {
  const errors: FieldErrors = {};
  const email = input.email.trim().toLowerCase();
  if (email !== '' && !isEmailAddress(email))
    errors.email = ['Enter one email address, like anna@example.com.'];
  const kinds = checkStaffEmails(input.bookingEmails, errors);
  await uow.run(workspaceId, async (tx) => {
    if (input.userId !== '') {
      const link = isUuid(input.userId) ? await lockMemberLink(tx, workspaceId, input.userId) : undefined;
      if (!link) errors.user_id = ['Choose a member of this workspace.'];
      else if (link.stafferId !== null && link.stafferId !== stafferId && link.liveStafferName !== undefined)
        errors.user_id = [
          `This user is already ${link.liveStafferName || 'another staffer'}. Choose “None” there first.`,
        ];
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    const found = await updateStafferRecipient(
      tx,
      workspaceId,
      stafferId,
      { email: email === '' ? null : email, booking_emails: kinds },
      now,
    );
    if (!found) throw notFound('Staffer');
    await setStafferMember(tx, workspaceId, stafferId, input.userId === '' ? null : input.userId);
    await recordAudit(tx, workspaceId, actor, 'settings.staffer_emails_updated', stafferId, {
      booking_emails: kinds,
      member: input.userId === '' ? null : input.userId,
    });
  });
}

/**
 * A panel user's own choice (a per-user setting): which booking emails they get
 * for the staffers linked to them. Only those staffers; anything else is a 404.
 */
export async function updateOwnBookingEmails(
  uow: UnitOfWork,
  workspaceId: string,
  userId: string,
  stafferId: string,
  bookingEmails: string[],
  now: number,
): Promise<void> {
  const errors: FieldErrors = {};
  const kinds = checkStaffEmails(bookingEmails, errors);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  await uow.run(workspaceId, async (tx) => {
    const mine = await listStafferRecipients(tx, workspaceId, userId);
    if (!mine.some((staffer) => staffer.id === stafferId)) throw notFound('Staffer');
    await updateStafferRecipient(tx, workspaceId, stafferId, { booking_emails: kinds }, now);
  });
}

function checkStaffEmails(values: string[], errors: FieldErrors): string[] {
  if (values.some((value) => !(STAFF_EMAILS as readonly string[]).includes(value)))
    errors.booking_emails = ['Choose among new, changed and canceled bookings.'];
  return STAFF_EMAILS.filter((kind) => values.includes(kind));
}

/** One page of the workspace's email log, newest first, with its total. */
export function mailLogPage(db: Db, workspaceId: string, page: { limit: number; offset: number }) {
  return listMailLog(db, workspaceId, page);
}

/** One email of the workspace's log; undefined for another workspace's. */
export function getMessage(db: Db, workspaceId: string, messageId: string) {
  return findMessage(db, workspaceId, messageId);
}

/** Each live staffer with the member linked to them and their email choices; one member's only with `onlyUserId`. */
export function listStaffRecipients(db: Db, workspaceId: string, onlyUserId?: string) {
  return listStafferRecipients(db, workspaceId, onlyUserId);
}

/** The workspace's members, whom a staffer can be linked to. */
export function listLinkableMembers(db: Db, workspaceId: string) {
  return listMembers(db, workspaceId);
}
