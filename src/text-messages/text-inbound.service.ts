import { cancelBooking, setStatus } from '../bookings/booking-changes.service.js';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { intlLocale, langOf, pickLanguage } from '../platform/i18n.js';
import { listLiveStatuses } from '../statuses/statuses.repository.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { classifyInbound } from './keywords.rules.js';
import { findInbound, nextBookingOfPhone, recordInbound, setOptOut } from './text-messages.repository.js';
import { E164 } from './text-plan.rules.js';
import { renderReply, textWhen } from './text-render.js';

export interface InboundContext {
  db: Db;
  uow: UnitOfWork;
  workspace: WorkspaceRow;
  now: number;
  linkBase: string;
}

export interface InboundText {
  provider: 'twilio' | 'gateway';
  /** The provider's id of the inbound message (Twilio's MessageSid): a retry repeats it. */
  messageId: string;
  /** The sender, E.164 (Twilio's WhatsApp senders come as whatsapp:+…). */
  from: string;
  body: string;
}

/**
 * An inbound text: STOP and its synonyms opt the number out of the workspace's texts, START opts
 * it back in, a confirm word sets the customer's next booking to the workspace's confirmed status,
 * a cancel word cancels it when the manage link's cut-off still allows, else the answer says how
 * to reach the business. Answers the reply to send back, or null.
 *
 * Idempotent per provider message id: a message seen before changes nothing and gets no second
 * reply. Each action is idempotent itself (an opt-out set twice, a status already set, a cancel of
 * a canceled booking), and the message is recorded after it, so a failure in between leaves the
 * provider's retry to finish the work, and two concurrent deliveries of one message act once.
 */
export async function receiveInboundText(
  ctx: InboundContext,
  input: InboundText,
): Promise<{ action: string; reply: string | null }> {
  const { workspace, now } = ctx;
  if (await findInbound(ctx.db, workspace.id, input.provider, input.messageId))
    return { action: 'duplicate', reply: null };
  const phone = input.from.replace(/^whatsapp:/, '');
  const action = classifyInbound(input.body);
  const booking = E164.test(phone) ? await nextBookingOfPhone(ctx.db, workspace.id, phone, now) : undefined;
  const lang = langOf(booking?.language) ?? pickLanguage(undefined, undefined, workspace.locale);
  const reply = (key: Parameters<typeof renderReply>[0], values: Record<string, string> = {}) =>
    renderReply(key, lang, workspace.locale, { workspace: workspace.name, ...values });
  const when = booking
    ? textWhen(booking.start_time.getTime(), booking.timezone, intlLocale(lang, workspace.locale))
    : '';
  let answer: string | null = null;
  let done: string = action;
  const bookingCtx = {
    db: ctx.db,
    uow: ctx.uow,
    workspace,
    actor: { type: 'system' as const, id: null },
    now,
    linkBase: ctx.linkBase,
  };
  if (action === 'stop' || action === 'start') {
    await ctx.uow.run(workspace.id, (tx) =>
      setOptOut(tx, workspace.id, phone, action === 'stop', input.body.trim().slice(0, 40), now),
    );
    // Twilio answers STOP and START itself on its numbers; the gateway relays our answer.
    answer =
      input.provider === 'twilio' ? null : reply(action === 'stop' ? 'reply_stopped' : 'reply_started');
  } else if (action === 'confirm' || action === 'cancel') {
    if (!booking) {
      answer = reply('reply_no_booking');
      done = `${action}:none`;
    } else if (action === 'confirm') {
      const confirmed = (await listLiveStatuses(ctx.db, workspace.id)).find(
        (status) => status.type === 'confirmed',
      );
      if (confirmed) await setStatus(bookingCtx, booking.id, confirmed.id);
      answer = reply('reply_confirmed', { when: when });
      done = `confirm:${booking.id}`;
    } else if (now > booking.start_time.getTime() - workspace.manage_cutoff_minutes * 60_000) {
      // The same cut-off as the manage link's: past it, the customer calls or writes instead.
      answer = reply('reply_cancel_refused', {
        contact:
          [workspace.contact_phone, workspace.contact_email].filter(Boolean).join(', ') || workspace.name,
      });
      done = `cancel_refused:${booking.id}`;
    } else {
      try {
        await cancelBooking(bookingCtx, booking.id, 'canceled');
      } catch (error) {
        // Canceled meanwhile (a concurrent delivery of this message): the outcome stands.
        if (!(error instanceof AppError && error.code === 'booking_final')) throw error;
      }
      answer = reply('reply_canceled', { when: when });
      done = `cancel:${booking.id}`;
    }
  }
  await ctx.uow.run(workspace.id, (tx) =>
    recordInbound(
      tx,
      {
        workspaceId: workspace.id,
        provider: input.provider,
        messageId: input.messageId,
        phone,
        body: input.body.slice(0, 1600),
        action: done,
        bookingId: booking?.id ?? null,
      },
      now,
    ),
  );
  return { action: done, reply: answer };
}
