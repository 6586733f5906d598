import type { PanelText } from '../../panel-kit/i18n.js';
import type { CancelReason } from '../../platform/db/schema.js';
import { formatMoney } from '../../platform/money.js';
import type { HistoryRow } from '../booking-history.repository.js';
import { cancelReasonLabel, type HistoryItem } from './booking.page.js';
import { wallDateTime } from './booking-times.js';

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
  context: { zone: string; currency: string; locale: string; userId: string; text: PanelText },
): HistoryItem[] {
  const { t } = context.text;
  // English keeps the day-first dates the panel has always shown; other languages their own.
  const dateLocale = context.text.lang === 'en' ? undefined : context.text.locale;
  const at = (iso: unknown) =>
    typeof iso === 'string' && !Number.isNaN(Date.parse(iso))
      ? wallDateTime(Date.parse(iso), context.zone, dateLocale)
      : '?';
  const REMOVED = {
    staffer: 'history.removedStaffer',
    service: 'history.removedService',
    status: 'history.removedStatus',
    'payment account': 'history.removedAccount',
    user: 'history.removedUser',
  } as const;
  const name = (map: Map<string, string>, id: unknown, what: keyof typeof REMOVED) =>
    (typeof id === 'string' && map.get(id)) || t(REMOVED[what]);
  const serviceList = (ids: unknown) =>
    Array.isArray(ids) ? ids.map((id) => name(names.services, id, 'service')).join(' + ') : '?';

  const nameList = (list: unknown) =>
    Array.isArray(list) && list.length > 0 ? list.map(String).join(', ') : '—';

  const what = (row: HistoryRow): string => {
    const changes = (row.changes ?? {}) as Json;
    switch (row.action) {
      case 'created':
        return t('history.created', {
          at: at(changes.start_time),
          staffer: name(names.staffers, changes.staffer_uuid, 'staffer'),
          services: serviceList(changes.service_uuids),
        });
      case 'rescheduled': {
        const time = fromTo(changes.start_time);
        if (changes.staffer_uuid === undefined)
          return t('history.moved', { from: at(time.from), to: at(time.to) });
        const staffer = fromTo(changes.staffer_uuid);
        return t('history.movedStaffer', {
          from: at(time.from),
          to: at(time.to),
          fromStaffer: name(names.staffers, staffer.from, 'staffer'),
          toStaffer: name(names.staffers, staffer.to, 'staffer'),
        });
      }
      case 'status_changed': {
        const status = fromTo(changes.status_uuid);
        return t('history.status', {
          from: name(names.statuses, status.from, 'status'),
          to: name(names.statuses, status.to, 'status'),
        });
      }
      case 'note_added':
        return t('history.note');
      case 'staffer_changed': {
        const staffer = fromTo(changes.staffer_uuid);
        return t('history.staffer', {
          from: name(names.staffers, staffer.from, 'staffer'),
          to: name(names.staffers, staffer.to, 'staffer'),
        });
      }
      case 'services_changed': {
        const services = fromTo(changes.service_uuids);
        return t('history.services', { from: serviceList(services.from), to: serviceList(services.to) });
      }
      case 'resources_changed': {
        // The entry carries the units' names as they were (a unit may be renamed or archived later).
        const units = fromTo(changes.resource_names);
        return t('history.resources', { from: nameList(units.from), to: nameList(units.to) });
      }
      case 'completed': {
        const payment = (changes.payment ?? {}) as Json;
        const amount =
          typeof payment.amount === 'number'
            ? formatMoney(payment.amount, context.currency, context.locale)
            : '?';
        return t('history.completed', {
          amount,
          account: name(names.accounts, payment.account_uuid, 'payment account'),
        });
      }
      case 'canceled': {
        const reason = changes.cancel_reason as CancelReason | null | undefined;
        return reason
          ? t('history.canceledReason', { reason: cancelReasonLabel(reason, context.text) })
          : t('history.canceled');
      }
      default:
        return String(row.action);
    }
  };

  const by = (row: HistoryRow): string => {
    if (row.actor_type === 'api_key') return t('history.apiKey');
    if (row.actor_type === 'system') return t('history.system');
    if (row.actor_id === context.userId) return t('history.you');
    return t('history.member', { name: name(names.users, row.actor_id, 'user') });
  };

  return [...rows].reverse().map((row) => ({
    when: wallDateTime(row.created_at.getTime(), context.zone, dateLocale),
    what: what(row),
    by: by(row),
  }));
}
