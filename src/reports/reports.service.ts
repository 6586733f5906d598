import { listAllLocations } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { todayIn } from '../platform/time/zone.js';
import type { Schedule } from '../slots/engine/types.js';
import { localDays, workingSpans } from '../slots/engine/working-spans.js';
import {
  bucketOf,
  bucketsOf,
  type PeriodProblem,
  perMille,
  type ReportPeriod,
  readPeriod,
} from './report-period.rules.js';
import {
  changedDays,
  LEAD_EDGES_HOURS,
  type LocationDay,
  lockRollup,
  missingDays,
  periodSums,
  rollUp,
  type SumRow,
} from './report-rollup.repository.js';
import {
  customerVisits,
  leadMedian,
  type NamedRow,
  namesOf,
  type PeriodArgs,
  schedulesOf,
} from './reports.repository.js';

export const REPORT_KINDS = [
  'revenue',
  'sources',
  'utilisation',
  'cancellations',
  'customers',
  'lead-time',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export function isReportKind(value: unknown): value is ReportKind {
  return typeof value === 'string' && (REPORT_KINDS as readonly string[]).includes(value);
}

/** How a figure reads: minor units of the workspace currency, a count, per mille, minutes, hours. */
export type Unit = 'money' | 'count' | 'permille' | 'minutes' | 'hours';

/**
 * What a row is called: a bucket's first day (shown by the period's grouping), a name from the
 * workspace's data, or one of the report's own words (a source, a cancel reason, a lead-time
 * band) that the page translates.
 */
export type RowLabel = { date: string } | { name: string } | { word: string };

export interface ReportRow {
  label: RowLabel;
  values: (number | null)[];
}

export interface ReportTable {
  /** Names the table in the page's words (`reports.table.<id>`) and in the CSV file name. */
  id: string;
  /** Column names in the page's words: `reports.column.<column>`. */
  columns: { id: string; unit: Unit }[];
  rows: ReportRow[];
  /** The sum of each summable column (null where a sum means nothing, like a rate). */
  total?: (number | null)[] | undefined;
}

export interface Report {
  kind: ReportKind;
  period: ReportPeriod;
  tables: ReportTable[];
  /** What the chart draws: one table's rows, one bar series per listed column. */
  chart: { table: string; columns: number[] };
}

/** The lead-time bands, in hours: under a day, 1-3 days, 3-7, 1-2 weeks, 2-4 weeks, beyond. */
export { LEAD_EDGES_HOURS };

const LEAD_WORDS = ['lead.day', 'lead.days3', 'lead.week', 'lead.weeks2', 'lead.weeks4', 'lead.more'];

/**
 * Brings the day sums of the period up to date (report-rollup.repository.ts): the days that
 * changed since they were rolled up, or never were, are recomputed from the bookings and payments
 * first. Most reads find nothing to do in two small reads; otherwise one reader of the workspace
 * at a time recomputes, and one that waited finds the days done.
 */
export async function refreshDaySums(db: Db, args: PeriodArgs): Promise<number> {
  const [missing, changed] = await Promise.all([missingDays(db, args), changedDays(db, args)]);
  if (missing.length === 0 && changed.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const tx = trx as Tx;
    await lockRollup(tx, args.workspaceId);
    const stillMissing = await missingDays(tx, args);
    const stillChanged = await changedDays(tx, args);
    const days = new Map<string, LocationDay>();
    for (const day of [...stillMissing, ...stillChanged])
      days.set(`${day.location_id}/${day.day}`, { location_id: day.location_id, day: day.day });
    await rollUp(
      tx,
      args.workspaceId,
      [...days.values()],
      stillChanged.map((change) => change.id),
    );
    return days.size;
  });
}

/**
 * One report for one period (and location). Every figure comes from the store: the day sums,
 * brought up to date first, or (customers, the median lead time) the bookings themselves.
 */
export async function buildReport(
  db: Db,
  workspaceId: string,
  kind: ReportKind,
  period: ReportPeriod,
): Promise<Report> {
  const args: PeriodArgs = { workspaceId, period };
  if (kind !== 'customers') await refreshDaySums(db, args);
  switch (kind) {
    case 'revenue':
      return revenueReport(db, args, period);
    case 'sources':
      return sourcesReport(db, args, period);
    case 'utilisation':
      return utilisationReport(db, args, period);
    case 'cancellations':
      return cancellationsReport(db, args, period);
    case 'customers':
      return customersReport(db, args, period);
    case 'lead-time':
      return leadTimeReport(db, args, period);
  }
}

class Names {
  private readonly byKind = new Map<string, NamedRow>();
  constructor(rows: NamedRow[]) {
    for (const row of rows) this.byKind.set(`${row.kind}:${row.id}`, row);
  }
  label(kind: NamedRow['kind'], id: string): RowLabel {
    const row = this.byKind.get(`${kind}:${id}`);
    return row && row.name !== '' ? { name: row.name } : { word: 'unnamed' };
  }
  /** Live rows of a kind (staffers for utilisation list those with hours and no bookings too). */
  live(kind: NamedRow['kind']): NamedRow[] {
    return [...this.byKind.values()].filter((row) => row.kind === kind && !row.archived);
  }
}

/** Sums `value` by key; rows in descending order of their first figure, then by name. */
function ranked(rows: ReportRow[]): ReportRow[] {
  return rows.sort(
    (a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0) || labelText(a).localeCompare(labelText(b)),
  );
}

function labelText(row: ReportRow): string {
  const { label } = row;
  return 'name' in label ? label.name : 'word' in label ? label.word : label.date;
}

function sumColumns(rows: ReportRow[], summable: boolean[]): (number | null)[] {
  return summable.map((yes, i) => (yes ? rows.reduce((sum, row) => sum + (row.values[i] ?? 0), 0) : null));
}

/** Per-day figures folded into the period's buckets, every bucket present. */
function byBucket(period: ReportPeriod, perDay: Map<string, number[]>, width: number): ReportRow[] {
  const buckets = new Map(bucketsOf(period).map((key) => [key, new Array<number>(width).fill(0)]));
  for (const [day, values] of perDay) {
    const sums = buckets.get(bucketOf(day, period.grouping));
    if (!sums) continue;
    addInto(sums, values);
  }
  return [...buckets].map(([date, values]) => ({ label: { date }, values }));
}

function addInto(sums: number[], values: number[]): void {
  for (const [i, value] of values.entries()) sums[i] = (sums[i] ?? 0) + value;
}

function addTo(map: Map<string, number[]>, key: string, values: number[]): void {
  const sums = map.get(key);
  if (!sums) map.set(key, [...values]);
  else addInto(sums, values);
}

async function revenueReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const [byAccountDay, byStaffer, services, names] = await Promise.all([
    periodSums(db, args, 'money.account', 'day-location-key'),
    periodSums(db, args, 'money.staffer', 'key'),
    periodSums(db, args, 'money.service', 'key'),
    namesOf(db, args.workspaceId).then((rows) => new Names(rows)),
  ]);
  // Every payment is in the account sums (by day, location and account): the days, the locations
  // and the accounts are totalled from those few rows.
  const totalled = (pick: (row: SumRow) => string): SumRow[] => {
    const sums = new Map<string, SumRow>();
    for (const row of byAccountDay) {
      const at = pick(row);
      const sum = sums.get(at);
      if (sum) {
        sum.v1 += row.v1;
        sum.v2 += row.v2;
      } else sums.set(at, { key: at, day: at, location_id: at, v1: row.v1, v2: row.v2, v3: 0, f1: 0 });
    }
    return [...sums.values()];
  };
  const byDay = totalled((row) => row.day!);
  const byLocation = totalled((row) => row.location_id!);
  const byAccount = totalled((row) => row.key!);
  const perDay = new Map<string, number[]>();
  // v1 is the money, v2 the number of payments; a payment without a staffer or an account ('')
  // counts in the days and locations but has no row of its own.
  const dimension = (
    kind: 'staffer' | 'location' | 'account',
    rows: SumRow[],
    pick: (row: SumRow) => string | null,
  ) =>
    ranked(
      rows
        .filter((row) => pick(row))
        .map((row) => ({ label: names.label(kind, pick(row)!), values: [row.v1, row.v2] })),
    );
  for (const row of byDay) addTo(perDay, row.day!, [row.v1, row.v2]);
  const moneyColumns = [
    { id: 'revenue', unit: 'money' as const },
    { id: 'payments', unit: 'count' as const },
  ];
  const table = (id: string, rows: ReportRow[]): ReportTable => ({
    id,
    columns: moneyColumns,
    rows,
    total: sumColumns(rows, [true, true]),
  });
  const serviceRows = ranked(
    services.map((row) => ({ label: names.label('service', row.key!), values: [row.v1] })),
  );
  return {
    kind: 'revenue',
    period,
    tables: [
      table('period', byBucket(period, perDay, 2)),
      table(
        'staffer',
        dimension('staffer', byStaffer, (row) => row.key),
      ),
      {
        id: 'service',
        columns: [{ id: 'revenue', unit: 'money' }],
        rows: serviceRows,
        total: sumColumns(serviceRows, [true]),
      },
      table(
        'location',
        dimension('location', byLocation, (row) => row.location_id),
      ),
      table(
        'account',
        dimension('account', byAccount, (row) => row.key),
      ),
    ],
    chart: { table: 'period', columns: [0] },
  };
}

/** Where bookings come from, in the words of the page: the booking page (and its ref), the panel, each key. */
function sourceLabel(
  row: { source: string; ref: string | null; key_id: string | null },
  names: Names,
): RowLabel {
  if (row.source === 'online-booking')
    return row.ref ? { name: `ref=${row.ref}` } : { word: 'source.bookingPage' };
  if (row.source === 'panel') return { word: 'source.panel' };
  if (row.key_id) {
    const key = names.label('key', row.key_id);
    return 'name' in key ? { name: `API · ${key.name}` } : { word: 'source.api' };
  }
  return row.source === 'api' ? { word: 'source.api' } : { name: `API · ${row.source}` };
}

async function sourcesReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const [sums, names] = await Promise.all([
    periodSums(db, args, 'made.source', 'key'),
    namesOf(db, args.workspaceId).then((rows) => new Names(rows)),
  ]);
  // The key is the JSON array [source, ref, key id]; v1 bookings, v2 canceled, v3 their value.
  const groups = sums.map((sum) => {
    const [source, ref, keyId] = JSON.parse(sum.key!) as [string, string | null, string | null];
    return { source, ref, key_id: keyId, bookings: sum.v1, canceled: sum.v2, value: sum.v3 };
  });
  // Two groups can share a label (a custom source string and a key of that name): one row each label.
  const byLabel = new Map<string, ReportRow>();
  for (const row of groups) {
    const label = sourceLabel(row, names);
    const key = JSON.stringify(label);
    const existing = byLabel.get(key);
    const values = [row.bookings, row.canceled, row.value];
    if (existing) addInto(existing.values as number[], values);
    else byLabel.set(key, { label, values });
  }
  const rows = ranked([...byLabel.values()]);
  return {
    kind: 'sources',
    period,
    tables: [
      {
        id: 'source',
        columns: [
          { id: 'bookings', unit: 'count' },
          { id: 'canceled', unit: 'count' },
          { id: 'value', unit: 'money' },
        ],
        rows,
        total: sumColumns(rows, [true, true, true]),
      },
    ],
    chart: { table: 'source', columns: [0] },
  };
}

/** Working minutes of a schedule over the period's local days at its location. */
export function workingMinutes(schedule: Schedule, zone: string, from: string, to: string): number {
  return workingSpans(schedule, zone, localDays(from, to)).reduce(
    (sum, span) => sum + (span.end - span.start) / 60_000,
    0,
  );
}

async function utilisationReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const [booked, schedules, names] = await Promise.all([
    periodSums(db, args, 'minutes', 'key'),
    schedulesOf(db, args.workspaceId, period.locationId),
    namesOf(db, args.workspaceId).then((rows) => new Names(rows)),
  ]);
  const byStaffer = new Map<string, { working: number; booked: number }>();
  const entry = (id: string) => {
    let found = byStaffer.get(id);
    if (!found) {
      found = { working: 0, booked: 0 };
      byStaffer.set(id, found);
    }
    return found;
  };
  // Staffers with the same hours in the same zone work the same minutes: each such schedule is
  // walked day by day once (a year of days is what costs here, not the sums).
  const walked = new Map<string, number>();
  for (const row of schedules) {
    const schedule: Schedule = {
      weekly: (row.weekly ?? {}) as Schedule['weekly'],
      breaks: (row.breaks ?? {}) as Schedule['breaks'],
      overrides: (row.overrides ?? []) as Schedule['overrides'],
    };
    const same = JSON.stringify([row.timezone, schedule.weekly, schedule.breaks, schedule.overrides]);
    let minutes = walked.get(same);
    if (minutes === undefined) {
      minutes = workingMinutes(schedule, row.timezone, period.from, period.to);
      walked.set(same, minutes);
    }
    entry(row.staffer_id).working += minutes;
  }
  for (const row of booked) entry(row.key!).booked += Math.round(row.f1);
  const rows = ranked(
    [...byStaffer].map(([id, minutes]) => ({
      label: names.label('staffer', id),
      values: [perMille(minutes.booked, minutes.working), minutes.booked, minutes.working],
    })),
  );
  const total = sumColumns(rows, [false, true, true]);
  total[0] = perMille(total[1] ?? 0, total[2] ?? 0);
  return {
    kind: 'utilisation',
    period,
    tables: [
      {
        id: 'staffer',
        columns: [
          { id: 'utilisation', unit: 'permille' },
          { id: 'bookedMinutes', unit: 'minutes' },
          { id: 'workingMinutes', unit: 'minutes' },
        ],
        rows,
        total,
      },
    ],
    chart: { table: 'staffer', columns: [0] },
  };
}

async function cancellationsReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const sums = await periodSums(db, args, 'visit', 'day-key');
  const perDay = new Map<string, number[]>();
  const byReason = new Map<string, number>();
  // The key is the JSON array [cancel reason, canceled]; v1 the bookings.
  const groups = sums.map((sum) => {
    const [reason, canceled] = JSON.parse(sum.key!) as [string | null, boolean];
    return { day: sum.day!, cancel_reason: reason, canceled, bookings: sum.v1 };
  });
  for (const row of groups) {
    const noShow = row.canceled && row.cancel_reason === 'didnt_come';
    const canceled = row.canceled && !noShow;
    addTo(perDay, row.day, [row.bookings, canceled ? row.bookings : 0, noShow ? row.bookings : 0]);
    if (row.canceled) {
      const reason = row.cancel_reason ?? 'other';
      byReason.set(reason, (byReason.get(reason) ?? 0) + row.bookings);
    }
  }
  const withRates = (values: (number | null)[]) => [
    ...values,
    perMille(values[1] ?? 0, values[0] ?? 0),
    perMille(values[2] ?? 0, values[0] ?? 0),
  ];
  const rows = byBucket(period, perDay, 3).map((row) => ({ ...row, values: withRates(row.values) }));
  const total = withRates(sumColumns(rows, [true, true, true]));
  const reasons = ranked(
    [...byReason].map(([reason, count]) => ({ label: { word: `reason.${reason}` }, values: [count] })),
  );
  return {
    kind: 'cancellations',
    period,
    tables: [
      {
        id: 'period',
        columns: [
          { id: 'bookings', unit: 'count' },
          { id: 'canceled', unit: 'count' },
          { id: 'noShows', unit: 'count' },
          { id: 'cancelRate', unit: 'permille' },
          { id: 'noShowRate', unit: 'permille' },
        ],
        rows,
        total,
      },
      {
        id: 'reason',
        columns: [{ id: 'bookings', unit: 'count' }],
        rows: reasons,
        total: sumColumns(reasons, [true]),
      },
    ],
    chart: { table: 'period', columns: [1, 2] },
  };
}

async function customersReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const groups = await customerVisits(db, args);
  const perDay = new Map<string, number[]>();
  for (const row of groups) {
    addTo(perDay, row.day, [
      row.new_customers,
      row.returning_customers,
      row.new_customers + row.returning_customers,
    ]);
  }
  const rows = byBucket(period, perDay, 3);
  return {
    kind: 'customers',
    period,
    tables: [
      {
        id: 'period',
        columns: [
          { id: 'newCustomers', unit: 'count' },
          { id: 'returningCustomers', unit: 'count' },
          { id: 'customers', unit: 'count' },
        ],
        rows,
        total: sumColumns(rows, [true, true, true]),
      },
    ],
    chart: { table: 'period', columns: [0, 1] },
  };
}

async function leadTimeReport(db: Db, args: PeriodArgs, period: ReportPeriod): Promise<Report> {
  const [sums, median] = await Promise.all([periodSums(db, args, 'lead', 'key'), leadMedian(db, args)]);
  const rows = sums.map((sum) => ({ bucket: Number(sum.key), bookings: sum.v1, hours: sum.f1 }));
  const all = rows.reduce((sum, row) => sum + row.bookings, 0);
  const summary =
    all === 0
      ? undefined
      : { median_hours: median, mean_hours: rows.reduce((sum, row) => sum + row.hours, 0) / all };
  // width_bucket answers 0 below the first edge, i between edge i-1 and edge i, and the number
  // of edges beyond the last: the band's index.
  const bands: ReportRow[] = LEAD_WORDS.map((word, i) => {
    const count = rows.find((row) => row.bucket === i)?.bookings ?? 0;
    return { label: { word }, values: [count, perMille(count, all)] };
  });
  return {
    kind: 'lead-time',
    period,
    tables: [
      {
        id: 'lead',
        columns: [
          { id: 'bookings', unit: 'count' },
          { id: 'share', unit: 'permille' },
        ],
        rows: bands,
        total: [all, all === 0 ? null : 1000],
      },
      {
        id: 'leadSummary',
        columns: [{ id: 'hours', unit: 'hours' }],
        rows: [
          { label: { word: 'lead.median' }, values: [round1(summary?.median_hours ?? null)] },
          { label: { word: 'lead.mean' }, values: [round1(summary?.mean_hours ?? null)] },
        ],
      },
    ],
    chart: { table: 'lead', columns: [0] },
  };
}

function round1(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10) / 10;
}

export interface ReportRequest {
  report: Report;
  problems: PeriodProblem[];
  locations: { id: string; name: string }[];
}

/**
 * A report as the panel asks for it: the period read from the query (the default ends today in
 * the first location's zone), refused parts named instead of guessed, and the live locations to
 * filter by. A location of another workspace, or none of this one, filters nothing.
 */
export async function requestReport(
  db: Db,
  workspaceId: string,
  kind: ReportKind,
  query: Record<string, unknown>,
  now: number,
): Promise<ReportRequest> {
  const locations = await listAllLocations(db, workspaceId);
  const live = locations.filter((location) => location.archived_at === null);
  const today = todayIn(live[0]?.timezone ?? 'UTC', now);
  const { period, problems } = readPeriod(query, today);
  if (period.locationId && !locations.some((location) => location.id === period.locationId))
    period.locationId = undefined;
  // A refused period shows the default one, with the reason above it.
  const shown =
    problems.length > 0
      ? readPeriod({ group: query.group, location: period.locationId }, today).period
      : period;
  return {
    report: await buildReport(db, workspaceId, kind, shown),
    problems,
    locations: live.map((location) => ({ id: location.id, name: location.name })),
  };
}
