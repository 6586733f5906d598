import { messageKey } from '../notifications/mail-message.js';
import { insertMessages, type NewMessage } from '../notifications/mail-queue.repository.js';
import { settingsOf } from '../notifications/notification-settings.rules.js';
import type { OutboxEvent } from '../outbox/outbox.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import { insertTexts, type NewText } from '../text-messages/text-messages.repository.js';
import { textKey } from '../text-messages/text-plan.rules.js';
import { textSettingsOf } from '../text-messages/text-settings.rules.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { offerLinkPath } from './offer-link.js';
import { offerDetails } from './waitlist.repository.js';

/**
 * An offer's email and text message, queued from its `waitlist-offer-created` event in the
 * transaction that dispatches it: the event is dispatched once and each message has a unique key
 * (the offer's id), so each goes out once, through the mail and text queues as a booking's do.
 * The email needs an address; the text needs texts switched on in the workspace. Neither waits
 * for quiet hours: an offer holds its time only for a while.
 */
export async function queueOfferMessages(tx: Tx, workspaceId: string, events: OutboxEvent[]): Promise<void> {
  const workspace = await findWorkspaceById(tx, workspaceId);
  if (!workspace) return;
  const mailSettings = settingsOf(workspace.notification_settings);
  const textSettings = textSettingsOf(workspace.text_settings);
  const mails: NewMessage[] = [];
  const texts: NewText[] = [];
  let now = 0;
  for (const event of events) {
    if (event.type !== 'waitlist-offer-created') continue;
    const made = (
      event.payload.data as { waitlist_offer?: { uuid?: unknown; made_by?: unknown } } | undefined
    )?.waitlist_offer;
    const offerId = made?.uuid;
    if (!isUuid(offerId)) continue;
    // A seat booked from the line (made_by auto): no link to send, the booking's own emails follow.
    if (made?.made_by === 'auto') continue;
    const offer = await offerDetails(tx, workspaceId, offerId);
    if (offer?.state !== 'open') continue;
    const at = Date.parse(String(event.payload.timestamp));
    const dueAt = Number.isFinite(at) ? at : offer.starts_at.getTime();
    now = Math.max(now, dueAt);
    const start = offer.starts_at.toISOString();
    const offerPath = offerLinkPath(workspace, offer.id);
    const services = offer.service_name;
    const address = [offer.address_1, offer.address_2, `${offer.postal_code} ${offer.city}`.trim()]
      .filter(Boolean)
      .join(', ');
    const email = offer.email.trim();
    if (email !== '') {
      mails.push({
        bookingId: null,
        kind: 'waitlist_offer',
        revision: 0,
        messageKey: messageKey({ bookingId: null, kind: 'waitlist_offer', revision: 0, variant: offer.id }),
        recipient: email,
        snapshot: {
          audience: 'customer',
          workspaceName: workspace.name,
          workspaceSlug: workspace.slug,
          locale: workspace.locale,
          language: offer.language,
          senderName: mailSettings.senderName,
          replyTo: mailSettings.replyTo,
          bookingId: null,
          manageToken: null,
          customerName: `${offer.first_name} ${offer.last_name}`.trim(),
          customerEmail: email,
          customerPhone: offer.phone,
          services,
          staffer: offer.staffer_first_name
            ? `${offer.staffer_first_name} ${offer.staffer_last_name ?? ''}`.trim()
            : null,
          location: offer.location_name,
          address,
          zone: offer.timezone,
          start,
          end: new Date(offer.starts_at.getTime() + offer.duration_minutes * 60_000).toISOString(),
          offerPath,
          heldUntil: offer.held_until.toISOString(),
        },
        dueAt,
        startsAt: null,
      });
    }
    if (textSettings.enabled && offer.phone !== '') {
      texts.push({
        bookingId: null,
        kind: 'waitlist_offer',
        revision: 0,
        messageKey: textKey(null, 'waitlist_offer', 0, offer.id),
        channel: textSettings.whatsapp ? 'whatsapp' : 'sms',
        recipient: offer.phone,
        provider: textSettings.provider,
        snapshot: {
          workspaceName: workspace.name,
          workspaceSlug: workspace.slug,
          locale: workspace.locale,
          language: offer.language,
          manageToken: null,
          services,
          location: [offer.location_name, address].filter(Boolean).join(', '),
          zone: offer.timezone,
          start,
          offerPath,
          heldUntil: offer.held_until.toISOString(),
        },
        dueAt,
        startsAt: null,
      });
    }
  }
  if (mails.length > 0) await insertMessages(tx, workspaceId, mails, now);
  if (texts.length > 0) await insertTexts(tx, workspaceId, texts, now);
}
