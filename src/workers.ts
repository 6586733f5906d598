import { calendarWriteHandler } from './calendar-sync/outbox-handler.js';
import { CalendarSyncWorker } from './calendar-sync/sync-worker.js';
import { CalendarWriteWorker } from './calendar-sync/write-worker.js';
import type { Config } from './config.js';
import { RetentionSweeper } from './customers/retention-sweeper.js';
import { type MailWorker, mailWorkerFromConfig } from './notifications/mail-worker.js';
import { emailHandler, paymentEmailHandler } from './notifications/outbox-handler.js';
import { type HandlerRegistry, registerHandlers } from './outbox/handlers.js';
import type { WorkerLogger } from './outbox/queue-worker.js';
import { paymentHandler } from './payments/outbox-handler.js';
import { PaymentSweeper } from './payments/payment-sweeper.js';
import type { Db } from './platform/db/client.js';
import type { Clock } from './platform/http/types.js';
import { textMessageHandler } from './text-messages/outbox-handler.js';
import { type TextWorker, textWorkerFromConfig } from './text-messages/text-worker.js';
import { waitlistHandler, waitlistHoursHandler, waitlistMessageHandler } from './waitlist/outbox-handler.js';
import { WaitlistRound } from './waitlist/waitlist-round.js';
import { WebhookWorker } from './webhooks/delivery-worker.js';
import { webhookHandler } from './webhooks/outbox-handler.js';
import { openWritePath } from './write-path.js';

/**
 * The handlers every outbox event is dispatched to, in this order: a change's webhook deliveries,
 * then its emails, then its text messages, its payment work, its writes to the staffer's own
 * calendar, and the waitlist's offers of a freed time. The one list of the process (the server's workers, `npm run worker`, and the
 * tests that dispatch): a new consequence of a change is one more entry here.
 */
export function outboxHandlers(): HandlerRegistry {
  return registerHandlers([
    webhookHandler,
    emailHandler,
    paymentEmailHandler,
    textMessageHandler,
    paymentHandler,
    calendarWriteHandler,
    waitlistHandler,
    waitlistHoursHandler,
    waitlistMessageHandler,
  ]);
}

/**
 * The process's workers: webhook deliveries, emails and texts, on one set of partition leases,
 * and the hourly retention sweep of customers (docs/customer-data.md).
 */
export interface Workers {
  webhook: WebhookWorker;
  mail: MailWorker;
  text: TextWorker;
  retention: RetentionSweeper;
  payments: PaymentSweeper;
  /** Staffers' own calendars (docs/calendar-sync.md): busy times in every 5 minutes. */
  calendars: CalendarSyncWorker;
  /** Bookings out to the staffers' own calendars, queued by the outbox. */
  calendarWrites: CalendarWriteWorker;
  /** The waitlist's offers that expired go to the next in line (docs/waitlist.md). */
  waitlist: WaitlistRound;
  start(): void;
  /** Lets the sends in flight finish and record their results; call before the store closes. */
  stop(): Promise<void>;
}

export function openWorkers(
  config: Config,
  deps: { db: Db; clock: Clock; logger: WorkerLogger; publicBase: string },
): Workers {
  const handlers = outboxHandlers();
  const webhook = new WebhookWorker({
    db: deps.db,
    clock: deps.clock,
    handlers,
    allowPrivate: config.webhooksAllowPrivate,
    logger: deps.logger,
  });
  // The mail worker shares the webhook worker's partition leases (one heartbeat per process).
  const mail = mailWorkerFromConfig(config, { ...deps, handlers, leases: webhook.leases });
  const text = textWorkerFromConfig(config, { ...deps, handlers, leases: webhook.leases });
  const retention = new RetentionSweeper({
    db: deps.db,
    uow: openWritePath(deps.db).uow,
    clock: deps.clock,
    linkBase: deps.publicBase,
    logger: deps.logger,
  });
  const payments = new PaymentSweeper({
    db: deps.db,
    uow: openWritePath(deps.db).uow,
    clock: deps.clock,
    linkBase: deps.publicBase,
    config,
    logger: deps.logger,
  });
  const calendars = new CalendarSyncWorker({
    db: deps.db,
    uow: openWritePath(deps.db).uow,
    clock: deps.clock,
    config,
    logger: deps.logger,
  });
  const calendarWrites = new CalendarWriteWorker({
    db: deps.db,
    uow: openWritePath(deps.db).uow,
    clock: deps.clock,
    config,
    linkBase: deps.publicBase,
    logger: deps.logger,
  });
  const waitlist = new WaitlistRound({
    db: deps.db,
    uow: openWritePath(deps.db).uow,
    clock: deps.clock,
    logger: deps.logger,
    linkBase: deps.publicBase,
  });
  return {
    webhook,
    mail,
    text,
    retention,
    payments,
    calendars,
    calendarWrites,
    waitlist,
    start() {
      webhook.start();
      mail.start();
      text.start();
      retention.start();
      payments.start();
      calendars.start();
      calendarWrites.start();
      waitlist.start();
    },
    async stop() {
      await waitlist.stop();
      await calendarWrites.stop();
      await calendars.stop();
      await payments.stop();
      await retention.stop();
      await text.stop();
      await mail.stop();
      await webhook.stop();
    },
  };
}
