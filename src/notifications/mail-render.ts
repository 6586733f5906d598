import { manageLinkPath } from '../bookings/booking-links.js';
import { bookingEventFile } from '../calendar-feeds/calendar-file.js';
import type { MailKind } from '../platform/db/schema.js';
import { intlLocale, type Lang, langOf, pickLanguage, textDirection } from '../platform/i18n.js';
import { formatDateTime, zoneTitle } from '../platform/time/format.js';
import type { MailSnapshot } from './mail-message.js';
import { mailTexts } from './mail-texts.js';

/** Where links point and who sends: the same for every message of a process. */
export interface RenderContext {
  /** PUBLIC_URL (or the server's own address) without a trailing slash. */
  publicBase: string;
  /** The sender: the workspace's name (or its sender name) at MAIL_FROM's address. */
  from: { name: string; address: string };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The .ics attachment of a booking email: REQUEST (new or still on) or CANCEL. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

const CANCELING: readonly MailKind[] = ['canceled', 'staff_canceled'];
/** The emails about money: they name the booking, but carry no calendar invitation. */
const ABOUT_MONEY: readonly MailKind[] = ['payment_received', 'payment_refunded', 'payment_failed'];

/** The manage page of the snapshot's booking, or null (test emails, staff emails). */
export function manageUrlOf(snapshot: MailSnapshot, publicBase: string): string | null {
  if (!snapshot.manageToken) return null;
  return publicBase + manageLinkPath(snapshot.workspaceSlug, snapshot.manageToken);
}

/**
 * The language of a message: a customer's email speaks the language they booked in (the booking
 * page stores it); staff and test emails, and bookings made without one (API, panel), the
 * workspace's.
 */
export function mailLanguage(snapshot: MailSnapshot): Lang {
  const booked = snapshot.audience === 'customer' ? langOf(snapshot.language) : undefined;
  return booked ?? pickLanguage(undefined, undefined, snapshot.locale);
}

/**
 * One message as it goes out (pure): subject, plain text and HTML in the message's language,
 * the time in the location's zone with the zone named, and the .ics attachment.
 */
export function renderMail(
  kind: MailKind,
  revision: number,
  snapshot: MailSnapshot,
  context: RenderContext,
): RenderedMail {
  const lang = mailLanguage(snapshot);
  const locale = intlLocale(lang, snapshot.locale);
  const t = mailTexts(lang, locale);
  const start = Date.parse(snapshot.start);
  const when = `${formatDateTime(start, snapshot.zone, locale)}, ${zoneTitle(snapshot.zone)}`;
  const subject = t
    .subject(kind, {
      what: snapshot.services,
      when,
      workspace: snapshot.workspaceName,
      amount: snapshot.amount ?? '',
    })
    .replace(/[\r\n]+/g, ' ');
  const staff = snapshot.audience === 'staff';
  const manageLink = staff ? null : manageUrlOf(snapshot, context.publicBase);
  // The manage page opens in the language booked in, whatever the browser that follows the link.
  const manageUrl = manageLink && langOf(snapshot.language) ? `${manageLink}?lang=${lang}` : manageLink;

  const rows: [string, string][] = [];
  if (kind !== 'test') {
    rows.push([t.when, when], [t.what, snapshot.services]);
    if (snapshot.staffer) rows.push([t.with, snapshot.staffer]);
    rows.push([t.where, [snapshot.location, snapshot.address].filter(Boolean).join(', ')]);
    if (staff) {
      const contact = [snapshot.customerName, snapshot.customerPhone, snapshot.customerEmail].filter(Boolean);
      rows.push([t.customer, contact.join(', ')]);
    }
  }
  const greeting = staff || !snapshot.customerName ? t.helloPlain : t.hello(snapshot.customerName);
  const until = snapshot.heldUntil
    ? formatDateTime(Date.parse(snapshot.heldUntil), snapshot.zone, locale)
    : '';
  const intro = t.intro(kind, snapshot.amount ?? '', until);
  // A waitlist offer links to its claim page, in the language of the email.
  const offerUrl = snapshot.offerPath
    ? `${context.publicBase}${snapshot.offerPath}${langOf(snapshot.language) ? `?lang=${lang}` : ''}`
    : null;
  const reminder =
    kind === 'reminder' && snapshot.reminderMinutes ? t.reminderIn(snapshot.reminderMinutes) : '';
  const method = CANCELING.includes(kind) ? ('CANCEL' as const) : ('REQUEST' as const);
  const calendar =
    // An outside calendar edit carries no invitation: the booking did not change.
    kind === 'test' ||
    kind === 'staff_calendar_edit' ||
    kind === 'waitlist_offer' ||
    ABOUT_MONEY.includes(kind) ||
    !snapshot.bookingId
      ? undefined
      : {
          method,
          content: bookingEventFile({
            bookingId: snapshot.bookingId,
            host: hostOf(context.publicBase),
            start,
            end: Date.parse(snapshot.end),
            // Staff see whom they serve; the customer sees where.
            title: `${snapshot.services} · ${staff ? snapshot.customerName || snapshot.workspaceName : snapshot.workspaceName}`,
            location: [snapshot.location, snapshot.address].filter(Boolean).join(', '),
            manageUrl,
            canceled: method === 'CANCEL',
            sequence: revision,
            method,
            organizer: { name: context.from.name, email: context.from.address },
            // The customer is the one invited; a staff copy names no attendee.
            ...(staff || !snapshot.customerEmail
              ? {}
              : { attendee: { name: snapshot.customerName, email: snapshot.customerEmail } }),
          }),
        };

  // Sides spelled out, not logical properties: mail clients (Outlook) ignore those.
  const labelStyle =
    textDirection(lang) === 'rtl'
      ? 'text-align:right;padding:2px 0 2px 12px;vertical-align:top'
      : 'text-align:left;padding:2px 12px 2px 0;vertical-align:top';
  const width = Math.max(0, ...rows.map(([label]) => label.length)) + 2;
  const text = [
    greeting,
    '',
    capitalize(intro),
    ...(reminder ? [reminder] : []),
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(rows.length > 0 ? [''] : []),
    ...(offerUrl ? [`${t.claim}:`, offerUrl, ''] : []),
    ...(manageUrl ? [`${t.manage}:`, manageUrl, ''] : []),
    ...(calendar ? [t.attachment, ''] : []),
    '-- ',
    snapshot.workspaceName,
    '',
  ].join('\n');

  const html = [
    '<!doctype html>',
    `<html lang="${lang}" dir="${textDirection(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(capitalize(intro))}${reminder ? ` ${escapeHtml(reminder)}` : ''}</p>`,
    rows.length > 0
      ? `<table role="presentation" style="border-collapse:collapse">${rows
          .map(
            ([label, value]) =>
              `<tr><th scope="row" style="${labelStyle}">${escapeHtml(label)}</th><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
          )
          .join('')}</table>`
      : '',
    offerUrl ? `<p><a href="${escapeHtml(offerUrl)}">${escapeHtml(t.claim)}</a></p>` : '',
    manageUrl ? `<p><a href="${escapeHtml(manageUrl)}">${escapeHtml(t.manage)}</a></p>` : '',
    calendar ? `<p style="color:#555">${escapeHtml(t.attachment)}</p>` : '',
    `<p style="color:#555">${escapeHtml(snapshot.workspaceName)}</p>`,
    '</body></html>',
  ].join('\n');

  return { subject, text, html, ...(calendar ? { calendar } : {}) };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function hostOf(base: string): string {
  try {
    return new URL(base).hostname;
  } catch {
    return 'localhost';
  }
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
