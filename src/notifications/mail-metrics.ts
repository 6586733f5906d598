import { Counter, Gauge } from 'prom-client';
import type { Database } from '../platform/db/client.js';
import { onScrape, registry } from '../platform/metrics/registry.js';
import { openMessageFigures } from './mail-queue.repository.js';

/** What became of one attempt at a message. */
export type MailOutcome = 'sent' | 'logged' | 'retrying' | 'failed' | 'expired' | 'lease_lost';

const mailAttempts = new Counter({
  name: 'kairos_mail_attempts_total',
  help: 'Email attempts made by this process, by outcome (sent, logged, retrying, failed, expired, lease_lost).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const mailOpen = new Gauge({
  name: 'kairos_mail_messages_due',
  help: 'Emails whose time has come and that are not sent yet (pending or being sent); reminders of later are not counted.',
  registers: [registry],
});

export function countMail(outcome: MailOutcome): void {
  mailAttempts.inc({ outcome });
}

/** Reads the mail queue's figure at each scrape of this process. */
export function watchMailQueue(database: Database): () => void {
  return onScrape(async () => {
    if (!(await database.ping())) return;
    mailOpen.set((await openMessageFigures(database.db, Date.now())).due);
  });
}
