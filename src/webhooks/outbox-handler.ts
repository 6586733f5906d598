import type { OutboxHandler } from '../outbox/handlers.js';
import { insertDeliveries } from './deliveries.repository.js';

/**
 * Each event becomes one delivery per enabled webhook of its workspace that wants its type; the
 * delivery worker sends them after the dispatch commits. Every type: a webhook may subscribe to
 * any, and an event of a type this version does not list (a newer version wrote it) still reaches
 * the webhooks of "*", as the deliveries always did. A fault rolls the dispatch back (and the
 * round retries): a receiver must never miss an event that was marked dispatched.
 */
export const webhookHandler: OutboxHandler = {
  name: 'webhooks',
  types: '*',
  onFault: 'retry',
  handle: (tx, { workspaceId, events, now }) => insertDeliveries(tx, workspaceId, events, now),
};
