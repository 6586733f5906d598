import { recordAccess, recordAudit } from '../audit/audit.service.js';
import { presentBooking, presentHistoryEntry } from '../bookings/bookings.presenter.js';
import { listBookingViews } from '../bookings/bookings.repository.js';
import { queueRewritesOfErased } from '../calendar-sync/calendar-writes.service.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import type { RequestContext } from '../workspaces/request-context.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import {
  answersNaming,
  bookingIdsOfCustomer,
  deliveriesOfEvents,
  eraseBookingTexts,
  eraseCustomerRow,
  eraseInboundTexts,
  eraseMail,
  eraseText,
  eraseWaitlistEntries,
  eventsOfBookings,
  historyOfBookings,
  inboundTextsOf,
  mailOfBookings,
  replaceDeliveryBody,
  replaceEventPayload,
  replaceHistoryChanges,
  replaceStoredAnswer,
  staleCustomers,
  textConsentsOf,
  textOptOutOf,
  textsOf,
  waitlistMailTo,
  waitlistOfCustomer,
  workspacesWithRetention,
} from './customer-data.repository.js';
import { type PersonalData, retentionCutoff, scrubPersonal, scrubText } from './customer-data.rules.js';
import { type CustomerRow, presentCustomer, requireCustomer } from './customers.repository.js';

/** An email or a text in the export, as the customer received it. */
interface ExportedMessage {
  channel: 'email' | 'sms' | 'whatsapp';
  booking_uuid: string | null;
  kind: string;
  recipient: string;
  subject: string | null;
  body_text: string | null;
  state: string;
  sent_at: string | null;
  created_at: string;
}

/** The export's format version: a reader can tell what it holds. */
export const CUSTOMER_EXPORT_FORMAT = 1;
const PAGE = 100;

/**
 * Everything the workspace keeps about one customer, as one JSON document (the right of access):
 * their profile, every booking in the API's shape with its order (payments) and history, and
 * the emails sent about those bookings with what they said. `consents` lists what the customer
 * agreed to; no consent is recorded yet, so it is empty.
 */
export async function exportCustomerData(
  ctx: RequestContext & { db: Db; uow: UnitOfWork },
  customerId: string,
) {
  const { db, workspace } = ctx;
  const customer = await requireCustomer(db, workspace.id, customerId);
  const bookings = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await listBookingViews(
      db,
      workspace.id,
      { customer_uuid: customer.id },
      { perPage: PAGE, offset },
      'oldest-first',
    );
    bookings.push(...rows);
    if (rows.length < PAGE) break;
  }
  const bookingIds = bookings.map((view) => view.id);
  // Who took a customer's data out, and when: the log keeps it (docs/audit-log.md).
  await recordAccess(ctx.uow, workspace.id, ctx.actor, 'customer.exported', customer.id);
  const [history, mail, texts, inbound, optOut, consents, waitlist] = await Promise.all([
    historyOfBookings(db, workspace.id, bookingIds),
    mailOfBookings(db, workspace.id, bookingIds).then(async (rows) => [
      ...rows,
      ...(await waitlistMailTo(db, workspace.id, customer.email)),
    ]),
    textsOf(db, workspace.id, bookingIds, customer.phone),
    inboundTextsOf(db, workspace.id, customer.phone),
    textOptOutOf(db, workspace.id, customer.phone),
    textConsentsOf(db, workspace.id, bookingIds),
    waitlistOfCustomer(db, workspace.id, customer.id),
  ]);
  return {
    format: CUSTOMER_EXPORT_FORMAT,
    exported_at: toUtcIso(ctx.now),
    workspace: { slug: workspace.slug, name: workspace.name },
    customer: {
      ...presentCustomer(customer),
      erased_at: customer.erased_at === null ? null : toUtcIso(customer.erased_at.getTime()),
    },
    bookings: bookings.map((view) => ({
      ...presentBooking(view, workspace, ctx.linkBase),
      history: history.filter((entry) => entry.booking_id === view.id).map(presentHistoryEntry),
    })),
    waitlist: waitlist.map(({ entry, offers }) => ({
      uuid: entry.id,
      location_uuid: entry.location_id,
      service_uuid: entry.service_id,
      staffer_uuid: entry.staffer_id,
      windows: entry.windows,
      any_time: entry.any_time,
      state: entry.state,
      booking_uuid: entry.booking_id,
      joined_at: toUtcIso(entry.joined_at.getTime()),
      offers: offers.map((offer) => ({
        uuid: offer.id,
        start_time: toUtcIso(offer.starts_at.getTime()),
        held_until: toUtcIso(offer.held_until.getTime()),
        state: offer.state,
        booking_uuid: offer.booking_id,
        created_at: toUtcIso(offer.created_at.getTime()),
      })),
    })),
    messages: mail
      .filter((message) => message.recipient !== '' && message.recipient === customer.email)
      .map(
        (message): ExportedMessage => ({
          channel: 'email',
          booking_uuid: message.booking_id,
          kind: message.kind,
          recipient: message.recipient,
          subject: message.subject,
          body_text: message.body_text,
          state: message.state,
          sent_at: message.sent_at === null ? null : toUtcIso(message.sent_at.getTime()),
          created_at: toUtcIso(message.created_at.getTime()),
        }),
      )
      .concat(
        texts
          .filter((text) => text.recipient !== '' && text.recipient === customer.phone)
          .map(
            (text): ExportedMessage => ({
              channel: text.channel,
              booking_uuid: text.booking_id,
              kind: text.kind,
              recipient: text.recipient,
              subject: null,
              body_text: text.body,
              state: text.state,
              sent_at: text.sent_at === null ? null : toUtcIso(text.sent_at.getTime()),
              created_at: toUtcIso(text.created_at.getTime()),
            }),
          ),
      ),
    messages_received: inbound.map((message) => ({
      body: message.body,
      action: message.action,
      booking_uuid: message.booking_id,
      received_at: toUtcIso(message.received_at.getTime()),
    })),
    consents: [
      ...consents.map((booking) => ({
        kind: 'text_messages',
        booking_uuid: booking.id,
        given: booking.text_consent,
        at: toUtcIso(booking.created_at.getTime()),
      })),
      ...(optOut
        ? [
            {
              kind: 'text_messages_number',
              booking_uuid: null,
              given: !optOut.opted_out,
              keyword: optOut.keyword,
              at: toUtcIso(optOut.updated_at.getTime()),
            },
          ]
        : []),
    ],
  };
}

/**
 * The right to erasure: the customer's personal data goes from every place it is kept
 * (customer-data.repository.ts), in one transaction, while their bookings, orders and payments
 * stay with their amounts and times, so the business's totals do not move. The customer row
 * stays, emptied and marked erased; erasing again changes nothing. Webhook bodies already
 * delivered to an integrator's server are beyond our reach: what we keep of them is scrubbed.
 */
export async function eraseCustomer(
  ctx: RequestContext & { uow: UnitOfWork },
  customerId: string,
): Promise<CustomerRow> {
  const { workspace } = ctx;
  return ctx.uow.run(workspace.id, async (tx) => {
    const customer = await requireCustomer(tx, workspace.id, customerId);
    if (customer.erased_at !== null) return customer;
    const at = new Date(ctx.now);
    const personal: PersonalData = { phone: customer.phone, email: customer.email };
    const bookingIds = await bookingIdsOfCustomer(tx, workspace.id, customer.id);

    await eraseBookingTexts(tx, workspace.id, bookingIds, at);
    for (const entry of await historyOfBookings(tx, workspace.id, bookingIds)) {
      const { value, changed } = scrubPersonal(entry.changes, personal);
      if (changed) await replaceHistoryChanges(tx, workspace.id, entry.id, value);
    }
    const events = await eventsOfBookings(tx, workspace.id, bookingIds);
    for (const event of events) {
      const { value, changed } = scrubPersonal(event.payload, personal);
      if (changed) await replaceEventPayload(tx, workspace.id, event.id, value);
    }
    const deliveries = await deliveriesOfEvents(
      tx,
      workspace.id,
      events.map((event) => event.id),
    );
    for (const delivery of deliveries) {
      const { value, changed } = scrubText(delivery.body, personal);
      if (changed) await replaceDeliveryBody(tx, workspace.id, delivery.id, value);
    }
    const mails = [
      ...(await mailOfBookings(tx, workspace.id, bookingIds)),
      ...(await waitlistMailTo(tx, workspace.id, personal.email)),
    ];
    for (const message of mails) {
      const { value } = scrubPersonal(message.snapshot, personal);
      await eraseMail(tx, workspace.id, message.id, {
        snapshot: value,
        toCustomer: personal.email !== '' && message.recipient === personal.email,
      });
    }
    for (const text of await textsOf(tx, workspace.id, bookingIds, personal.phone)) {
      const { value } = scrubPersonal(text.snapshot, personal);
      await eraseText(tx, workspace.id, text.id, {
        snapshot: value,
        toCustomer: text.recipient === personal.phone,
      });
    }
    await eraseInboundTexts(tx, workspace.id, personal.phone);
    await eraseWaitlistEntries(tx, workspace.id, customer.id, at);
    // Events in staffers' own calendars that name the customer are written again without it.
    await queueRewritesOfErased(tx, workspace.id, bookingIds, ctx.now);
    for (const answer of await answersNaming(tx, workspace.id, customer.id)) {
      if (answer.response_body === null) continue;
      const { value, changed } = scrubText(answer.response_body, personal);
      if (changed) await replaceStoredAnswer(tx, workspace.id, answer.key, value);
    }
    await eraseCustomerRow(tx, workspace.id, customer.id, at);
    await recordAudit(tx, workspace.id, ctx.actor, 'customer.erased', customer.id, {
      bookings: bookingIds.length,
    });
    return requireCustomer(tx, workspace.id, customer.id);
  });
}

/** At most this many customers are erased per workspace and sweep; the next sweep goes on. */
const SWEEP_BATCH = 100;

/**
 * The retention sweep (run by the worker, `kairos customers retention-sweep`): in each workspace
 * that set `customer_retention_months`, erases customers with no booking starting in that many
 * months (and created before then). Returns how many it erased.
 */
export async function sweepRetention(deps: { db: Db; uow: UnitOfWork; now: number; linkBase: string }) {
  let erased = 0;
  for (const { id, customer_retention_months: months } of await workspacesWithRetention(deps.db)) {
    const before = retentionCutoff(deps.now, months!);
    const stale = await staleCustomers(deps.db, id, before, SWEEP_BATCH);
    if (stale.length === 0) continue;
    const workspace = await findWorkspaceById(deps.db, id);
    if (!workspace) continue;
    for (const customerId of stale) {
      await eraseCustomer(
        {
          workspace,
          actor: { type: 'system', id: null },
          now: deps.now,
          linkBase: deps.linkBase,
          uow: deps.uow,
        },
        customerId,
      );
      erased += 1;
    }
  }
  return erased;
}
