import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { parseConnectionUrl } from 'nodemailer/lib/shared';

/** One message, ready to go. */
export interface OutgoingMail {
  from: { name: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** `<key@domain>`: the same on every attempt of the message. */
  messageId: string;
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** What became of one attempt. */
export interface SendResult {
  ok: boolean;
  /** A refusal that the same message would get again (5xx): no retry. */
  permanent: boolean;
  /** The server's answer ("250 2.0.0 Ok: queued as ...") or what went wrong on the way. */
  response: string;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<SendResult>;
  close(): void;
}

/** Per-step limits: a silent server must not hold a message longer than the worker's lease. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * A pooled nodemailer SMTP transport to `SMTP_URL`: `smtp://` (STARTTLS when the
 * server offers it; `?requireTLS=true` insists) or `smtps://` (TLS from the start), user and
 * password from the URL; any nodemailer option may be given as a query parameter.
 */
export function smtpSender(url: string, options: { maxConnections?: number } = {}): MailSender {
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: options.maxConnections ?? 4,
    ...SMTP_TIMEOUTS,
    ...parseConnectionUrl(url),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { 'Auto-Submitted': 'auto-generated' },
          ...(mail.calendar
            ? {
                attachments: [
                  {
                    filename: mail.calendar.method === 'CANCEL' ? 'cancel.ics' : 'booking.ics',
                    content: mail.calendar.content,
                    contentType: `text/calendar; charset=utf-8; method=${mail.calendar.method}`,
                  },
                ],
              }
            : {}),
        });
        const response = String((info as { response?: unknown }).response ?? 'accepted');
        const rejected = (info as { rejected?: string[] }).rejected ?? [];
        if (rejected.length > 0) return { ok: false, permanent: true, response: `rejected: ${response}` };
        return { ok: true, permanent: false, response };
      } catch (error) {
        const err = error as {
          message?: string;
          response?: string;
          responseCode?: number;
          permanent?: boolean;
        };
        return {
          ok: false,
          // An SMTP 5xx (but 503) is a refusal for good; a connection or 4xx failure is tried again.
          permanent: err.permanent === true,
          response: (err.response ?? err.message ?? String(error)).slice(0, 500),
        };
      }
    },
    close() {
      transport.close();
    },
  };
}

/** MAIL_FROM → its address and display name ("Kairos <bookings@example.com>" or a bare address). */
export function parseMailFrom(value: string): { name: string; address: string } | undefined {
  const [first] = addressparser(value) as { name?: string; address?: string }[];
  const address = first?.address;
  if (!address?.includes('@')) return undefined;
  return { name: first?.name ?? '', address };
}
