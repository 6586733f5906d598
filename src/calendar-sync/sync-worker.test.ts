/**
 * The periodic sync: the worker syncs exactly the connections that are due (a connect schedules
 * the next sync 5 minutes on), picks up outside changes then, and backs off a failing server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { type Radicale, radicaleProxy, startRadicale } from '../../test/helpers/radicale.js';
import { openWritePath } from '../write-path.js';
import { connectCalendar, SYNC_INTERVAL_MS } from './calendar-sync.service.js';
import { CalendarSyncWorker } from './sync-worker.js';

let s: Studio;
let radicale: Radicale;
let work: string;
const config = {
  secretKey: 'sync-worker-test-key-0123456789abcdef0123',
  webhooksAllowPrivate: true,
  databaseUrl: undefined,
  dataDir: '/nonexistent',
};
const logged: string[] = [];
const logger = {
  info: () => {},
  warn: (_o: unknown, message: string) => {
    logged.push(message);
  },
  error: () => {},
};

const event = (start: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    'UID:w1',
    'DTSTAMP:20260801T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

async function spans(stafferId: string): Promise<string[]> {
  const rows = await s.t.db
    .selectFrom('calendar_busy_spans')
    .select(['start_ms', 'end_ms'])
    .where('staffer_id', '=', stafferId)
    .execute();
  return rows.map((r) => `${new Date(r.start_ms).toISOString()}/${new Date(r.end_ms).toISOString()}`);
}

beforeAll(async () => {
  [s, radicale] = await Promise.all([openStudio(), startRadicale()]);
  work = await radicale.makeCalendar('work');
  await radicale.put(work, 'w1.ics', event('20260903T080000Z'));
});
afterAll(async () => {
  await s?.t.close();
  await radicale?.stop();
});

describe('CalendarSyncWorker', () => {
  it('syncs only what is due, once across workers, then picks up a change when its interval has passed', async () => {
    const deps = { db: s.t.db, uow: openWritePath(s.t.db).uow, clock: s.clock, config };
    await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    const first = await spans(s.f.anna.id);
    expect(first).toHaveLength(1);
    const worker = new CalendarSyncWorker({ ...deps, logger });
    await radicale.put(work, 'w1.ics', event('20260903T120000Z'));
    // Not due yet: nothing synced, the old span stays.
    expect(await worker.syncDue()).toBe(0);
    expect(await spans(s.f.anna.id)).toEqual(first);
    s.clock.advance(SYNC_INTERVAL_MS);
    // Two workers at once: the claim hands the due calendar to one of them only.
    const other = new CalendarSyncWorker({ ...deps, logger });
    const [a, b] = await Promise.all([worker.syncDue(), other.syncDue()]);
    expect(a + b).toBe(1);
    const second = await spans(s.f.anna.id);
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
    expect(second).toEqual(['2026-09-03T12:00:00.000Z/2026-09-03T13:00:00.000Z']);
  });

  it('a failing server is retried later and later, its busy times kept', async () => {
    const proxy = await radicaleProxy(radicale);
    const deps = { db: s.t.db, uow: openWritePath(s.t.db).uow, clock: s.clock, config };
    await connectCalendar(deps, s.t.workspace.id, s.f.ben.id, {
      server_url: proxy.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [`${proxy.url}anna/work/`],
    });
    expect(await spans(s.f.ben.id)).toHaveLength(1);
    await proxy.close();
    const worker = new CalendarSyncWorker({ ...deps, logger });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      s.clock.advance(2 * 60 * 60_000);
      expect(await worker.syncDue()).toBeGreaterThanOrEqual(1);
      const row = await s.t.db
        .selectFrom('calendar_connections')
        .select(['next_sync_at', 'status', 'failure_count'])
        .where('staffer_id', '=', s.f.ben.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('failing');
      expect(row.failure_count).toBe(i + 1);
      waits.push(row.next_sync_at.getTime() - s.clock.now());
    }
    expect(waits).toEqual([5 * 60_000, 10 * 60_000, 20 * 60_000]);
    expect(await spans(s.f.ben.id)).toHaveLength(1);
    expect(logged).toContain('calendar sync failed; last known busy times kept');
  });
});
