import type { CancelReason } from '../../platform/db/schema.js';
import { formatMoney } from '../../platform/money.js';
import type { HistoryRow } from '../booking-history.repository.js';
import type { HistoryItem } from './booking.page.js';
import { CANCEL_REASON_LABELS, wallDateTime } from './booking-times.js';

/** Names of the records history entries refer to by uuid; an unknown one is said in words. */
export interface HistoryNames {
  staffers: Map<string, string>;
  services: Map<string, string>;
  statuses: Map<string, string>;
  accounts: Map<string, string>;
  users: Map<string, string>;
}

type Json = Record<string, unknown>;
const fromTo = (value: unknown) => (value ?? {}) as { from?: unknown; to?: unknown };

/** A booking's history as sentences, newest first, times in the location's zone. */
export function describeHistory(
  rows: HistoryRow[],
  names: HistoryNames,
  context: { zone: string; currency: string; locale: string; userId: string },
): HistoryItem[] {
  const at = (iso: unknown) =>
    typeof iso === 'string' && !Number.isNaN(Date.parse(iso))
      ? wallDateTime(Date.parse(iso), context.zone)
      : '?';
  const name = (map: Map<string, string>, id: unknown, what: string) =>
    (typeof id === 'string' && map.get(id)) || `a removed ${what}`;
  const serviceList = (ids: unknown) =>
    Array.isArray(ids) ? ids.map((id) => name(names.services, id, 'service')).join(' + ') : '?';

  const what = (row: HistoryRow): string => {
    const changes = (row.changes ?? {}) as Json;
    switch (row.action) {
      case 'created':
        return `Booked for ${at(changes.start_time)} with ${name(names.staffers, changes.staffer_uuid, 'staffer')}: ${serviceList(changes.service_uuids)}`;
      case 'rescheduled': {
        const time = fromTo(changes.start_time);
        const moved = `Moved from ${at(time.from)} to ${at(time.to)}`;
        if (changes.staffer_uuid === undefined) return moved;
        const staffer = fromTo(changes.staffer_uuid);
        return `${moved}, from ${name(names.staffers, staffer.from, 'staffer')} to ${name(names.staffers, staffer.to, 'staffer')}`;
      }
      case 'status_changed': {
        const status = fromTo(changes.status_uuid);
        return `Status changed from ${name(names.statuses, status.from, 'status')} to ${name(names.statuses, status.to, 'status')}`;
      }
      case 'note_added':
        return 'Public note added';
      case 'staffer_changed': {
        const staffer = fromTo(changes.staffer_uuid);
        return `Staffer changed from ${name(names.staffers, staffer.from, 'staffer')} to ${name(names.staffers, staffer.to, 'staffer')}`;
      }
      case 'services_changed': {
        const services = fromTo(changes.service_uuids);
        return `Services changed from ${serviceList(services.from)} to ${serviceList(services.to)}`;
      }
      case 'completed': {
        const payment = (changes.payment ?? {}) as Json;
        const amount =
          typeof payment.amount === 'number'
            ? formatMoney(payment.amount, context.currency, context.locale)
            : '?';
        return `Completed; ${amount} paid to ${name(names.accounts, payment.account_uuid, 'payment account')}`;
      }
      case 'canceled': {
        const reason = changes.cancel_reason as CancelReason | null | undefined;
        return reason ? `Canceled: ${CANCEL_REASON_LABELS[reason] ?? reason}` : 'Canceled';
      }
      default:
        return String(row.action);
    }
  };

  const by = (row: HistoryRow): string => {
    if (row.actor_type === 'api_key') return 'An API key';
    if (row.actor_type === 'system') return 'The customer online, or the system';
    if (row.actor_id === context.userId) return 'You, in the panel';
    return `${name(names.users, row.actor_id, 'user')}, in the panel`;
  };

  return [...rows].reverse().map((row) => ({
    when: wallDateTime(row.created_at.getTime(), context.zone),
    what: what(row),
    by: by(row),
  }));
}
