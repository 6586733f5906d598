import type { MailKind } from '../platform/db/schema.js';

/**
 * What one queued email tells, taken from the booking its change's outbox event carries (so a
 * message says what was true at its revision, however the booking changes later), and the
 * identity of the message.
 */
export interface MailSnapshot {
  audience: 'customer' | 'staff' | 'test';
  workspaceName: string;
  workspaceSlug: string;
  /** The workspace locale (BCP 47): staff emails speak its language (English when unsupported). */
  locale: string;
  /**
   * The language the customer booked in (`bookings.language`), which their emails speak; absent
   * for bookings made without one and in snapshots queued before it was kept.
   */
  language?: string | null;
  /** The From display name chosen in the settings ('' = the workspace's name), and Reply-To. */
  senderName: string;
  replyTo: string;
  bookingId: string | null;
  /** The manage link's token (src/bookings/manage-link.ts); the URL is made when sending. */
  manageToken: string | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  services: string;
  staffer: string | null;
  location: string;
  address: string;
  /** The location's IANA zone: times are shown in it, and it is named. */
  zone: string;
  /** ISO instants. */
  start: string;
  end: string;
  /** For reminders: how long before the start, in minutes. */
  reminderMinutes?: number;
  /** For the emails about money: the amount, formatted in the workspace's currency and locale. */
  amount?: string;
  /** A waitlist offer's claim link, as a path (`/book/<slug>/waitlist/offer/<token>`); the URL is made when sending. */
  offerPath?: string;
  /** A waitlist offer's end of hold, an ISO instant. */
  heldUntil?: string;
}

/** The local part of every Message-ID comes from these; the domain from MAIL_FROM. */
export interface MessageIdentity {
  bookingId: string | null;
  kind: MailKind;
  revision: number;
  /** Tells apart messages of one change: a reminder's offset, a staffer, a resend. */
  variant?: string;
}

/**
 * The message's key, unique per workspace: at most one message per booking, kind, revision and
 * variant ever exists, and retries of it carry the same Message-ID.
 */
export function messageKey(identity: MessageIdentity): string {
  const base = `${identity.bookingId ?? 'none'}.${identity.kind}.r${identity.revision}`;
  return identity.variant ? `${base}.${identity.variant}` : base;
}

/** The SMTP Message-ID of a key: `<key@domain>` (RFC 5322 msg-id). */
export function messageIdOf(key: string, domain: string): string {
  return `<${key}@${domain}>`;
}

/** The domain of a From address (`Name <a@b.example>` or `a@b.example`); 'localhost' when none. */
export function domainOf(address: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(address);
  return match?.[1]?.toLowerCase() ?? 'localhost';
}
