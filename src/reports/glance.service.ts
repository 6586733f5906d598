import { stafferOfMember } from '../calendar-feeds/calendar-feeds.repository.js';
import { listAllLocations } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import { addDays, todayIn } from '../platform/time/zone.js';
import { failuresSince } from './attention.repository.js';
import { bucketOf } from './report-period.rules.js';
import { moneyGroups, visitGroups } from './reports.repository.js';

/** Bookings and money of a span of days: what Home compares with the same days a week before. */
export interface Figures {
  /** Kept bookings (not canceled) whose visit falls on those days. */
  bookings: number;
  /** Money taken on those days; undefined for those who may not see it. */
  revenue: number | undefined;
}

export interface DayCount {
  date: string;
  bookings: number;
  /** The reader's own bookings of the day, when they are a staffer. */
  own: number;
}

export type AttentionKind =
  | 'webhooks'
  | 'emails'
  | 'texts'
  | 'payments'
  | 'holds'
  | 'waitlistExpired'
  | 'waitlistWaiting';

export interface AttentionItem {
  kind: AttentionKind;
  count: number;
}

export interface Glance {
  /** Today in the first location's zone (each booking still counts on its own location's day). */
  today: string;
  ownStafferId: string | null;
  /** The seven days after today. */
  nextDays: DayCount[];
  todayFigures: Figures;
  sameDayLastWeek: Figures;
  /** Monday to today, and the same days of last week. */
  weekToDate: Figures;
  lastWeekToDate: Figures;
  /** Failures of the last seven days the reader can fix, none listed when nothing failed. */
  attention: AttentionItem[];
}

export interface GlanceReader {
  workspaceId: string;
  userId: string;
  now: number;
  /** Money is shown to those who see the reports (owners, admins). */
  seesRevenue: boolean;
  /**
   * What the reader can act on: webhooks (developers), emails and texts (notifications), declined
   * charges (those who see the money), unpaid holds (everyone who runs bookings).
   */
  fixes: readonly AttentionKind[];
}

const WEEK_MS = 7 * 86_400_000;

/**
 * Home's figures: the next seven days' bookings, today and this week against the same days a
 * week before, and what needs attention. Three reads (visits, money, failures), each one
 * statement by workspace.
 */
export async function glanceOf(db: Db, reader: GlanceReader): Promise<Glance> {
  const [locations, ownStafferId] = await Promise.all([
    listAllLocations(db, reader.workspaceId),
    stafferOfMember(db, reader.workspaceId, reader.userId),
  ]);
  const zone = locations.find((location) => location.archived_at === null)?.timezone ?? 'UTC';
  const today = todayIn(zone, reader.now);
  const monday = bucketOf(today, 'week');
  const lastMonday = addDays(monday, -7);
  const sameDayLastWeek = addDays(today, -7);
  const [visits, money, failures] = await Promise.all([
    visitGroups(
      db,
      {
        workspaceId: reader.workspaceId,
        period: { from: lastMonday, to: addDays(today, 7), locationId: undefined },
      },
      ownStafferId,
    ),
    reader.seesRevenue
      ? moneyGroups(db, {
          workspaceId: reader.workspaceId,
          period: { from: lastMonday, to: today, locationId: undefined },
        })
      : Promise.resolve([]),
    reader.fixes.length > 0
      ? failuresSince(db, reader.workspaceId, new Date(reader.now - WEEK_MS))
      : undefined,
  ]);
  const kept = new Map<string, { bookings: number; own: number }>();
  for (const row of visits) {
    if (row.canceled) continue;
    const day = kept.get(row.day) ?? { bookings: 0, own: 0 };
    day.bookings += row.bookings;
    day.own += row.own;
    kept.set(row.day, day);
  }
  const taken = new Map<string, number>();
  for (const row of money) if (row.day !== null) taken.set(row.day, (taken.get(row.day) ?? 0) + row.amount);
  const figures = (from: string, to: string): Figures => {
    let bookings = 0;
    let revenue = 0;
    for (let day = from; day <= to; day = addDays(day, 1)) {
      bookings += kept.get(day)?.bookings ?? 0;
      revenue += taken.get(day) ?? 0;
    }
    return { bookings, revenue: reader.seesRevenue ? revenue : undefined };
  };
  const nextDays = [1, 2, 3, 4, 5, 6, 7].map((n) => {
    const date = addDays(today, n);
    return { date, bookings: kept.get(date)?.bookings ?? 0, own: kept.get(date)?.own ?? 0 };
  });
  const attention: AttentionItem[] = failures
    ? reader.fixes.map((kind) => ({ kind, count: failures[kind] })).filter((item) => item.count > 0)
    : [];
  return {
    today,
    ownStafferId,
    nextDays,
    todayFigures: figures(today, today),
    sameDayLastWeek: figures(sameDayLastWeek, sameDayLastWeek),
    weekToDate: figures(monday, today),
    lastWeekToDate: figures(lastMonday, sameDayLastWeek),
    attention,
  };
}
