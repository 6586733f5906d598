import { liveStafferName, stafferOfMember } from '../calendar-feeds/calendar-feeds.repository.js';
import type { Config } from '../config.js';
import { AppError, FieldErrorBag, type FieldIssue, notFound, REQUIRED, ruleIssue } from '../errors.js';
import { queueCalendarEditNotice } from '../notifications/calendar-edit-notifications.service.js';
import type { Db } from '../platform/db/client.js';
import type { Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Clock } from '../platform/http/types.js';
import { secretBoxOf } from '../platform/secrets.js';
import { findStaffer } from '../staffers/staffers.repository.js';
import { checkWebhookUrl } from '../webhooks/ssrf-guard.js';
import {
  allObjects,
  busySpansBetween,
  type ConnectionRow,
  deleteConnection,
  deleteObjects,
  failingConnections,
  findConnection,
  knownObjects,
  objectsMissingFrom,
  rebuildBusyBlocks,
  recordSyncFailure,
  recordSyncSuccess,
  replaceSpans,
  type SpanValues,
  type StoredObject,
  saveConnection,
  stafferSyncFacts,
  upsertObjects,
} from './calendar-sync.repository.js';
import { setOutsideChange, writtenEventsAt } from './calendar-writes.repository.js';
import { busyInstances, IcsUnreadable } from './ics-busy.rules.js';
import { caldavProvider } from './providers/caldav-provider.js';
import {
  type CalendarProvider,
  CalendarProviderError,
  type ChangeSet,
  type RemoteCalendar,
} from './providers/calendar-provider.js';
import { outsideChangeOf } from './readback.rules.js';

/**
 * What the sync needs of the process: the store and its write path, the server key and the SSRF
 * allowance (config), the clock. The API's and the worker's deps are such.
 */
export interface CalendarDeps {
  db: Db;
  uow: UnitOfWork;
  config: Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir' | 'webhooksAllowPrivate'>;
  clock: Clock;
  /** Bound of one request to a calendar server (default 20 s). */
  calendarTimeoutMs?: number;
}

export const SYNC_INTERVAL_MS = 5 * 60_000;
/** The longest wait between attempts of a failing calendar. */
export const MAX_BACKOFF_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
const DEFAULT_TIMEOUT_MS = 20_000;
/** Events Kairos itself writes (bookings out) carry this UID prefix and never block: the booking does. */
export const OWN_UID_PREFIX = 'kairos-booking-';

export const credentialsContext = (workspaceId: string, stafferId: string) =>
  `calendar-credentials:${workspaceId}:${stafferId}`;

/**
 * The panel's connect form is two steps (the account, then the calendars it found): between
 * them the app password travels sealed for this staffer only, so the page never holds it in
 * clear and a sealed value of one staffer's form opens for no other.
 */
const draftContext = (workspaceId: string, stafferId: string) =>
  `calendar-connect-draft:${workspaceId}:${stafferId}`;

export function sealDraftPassword(
  deps: Pick<CalendarDeps, 'config'>,
  workspaceId: string,
  stafferId: string,
  password: string,
): string {
  return secretBoxOf(deps.config).seal(password, draftContext(workspaceId, stafferId));
}

/** The password of the form's first step; undefined when the value is not one sealed for this staffer. */
export function openDraftPassword(
  deps: Pick<CalendarDeps, 'config'>,
  workspaceId: string,
  stafferId: string,
  sealed: string,
): string | undefined {
  if (sealed === '') return undefined;
  try {
    return secretBoxOf(deps.config).open(sealed, draftContext(workspaceId, stafferId));
  } catch {
    return undefined;
  }
}

/** The live staffer a panel member is in this workspace (memberships.staffer_id), with their name. */
export async function ownStafferOf(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<{ id: string; name: string } | null> {
  const id = await stafferOfMember(db, workspaceId, userId);
  if (!id) return null;
  const name = await liveStafferName(db, workspaceId, id);
  return name === undefined ? null : { id, name };
}

/** A calendar connection as the API and panel show it: never the password. */
export interface ConnectionView {
  staffer_uuid: string;
  provider: 'caldav';
  server_url: string;
  username: string;
  read_calendars: string[];
  write_calendar: string | null;
  all_day_blocks: boolean;
  show_titles: boolean;
  customer_name_in_events: boolean;
  status: 'ok' | 'failing' | 'refused';
  last_error: string | null;
  last_sync_at: string | null;
  last_success_at: string | null;
  next_sync_at: string;
}

export function presentConnection(row: ConnectionRow): ConnectionView {
  return {
    staffer_uuid: row.staffer_id,
    provider: 'caldav',
    server_url: row.server_url,
    username: row.username,
    read_calendars: row.read_calendars,
    write_calendar: row.write_calendar,
    all_day_blocks: row.all_day_blocks,
    show_titles: row.show_titles,
    customer_name_in_events: row.customer_name_in_events,
    status: row.status,
    last_error: row.last_error,
    last_sync_at: row.last_sync_at?.toISOString() ?? null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
    next_sync_at: row.next_sync_at.toISOString(),
  };
}

export interface ConnectionInput {
  server_url: string;
  username: string;
  /** Required on the first connect or a changed account; left out = keep the saved one. */
  password?: string | undefined;
  read_calendars?: string[] | undefined;
  write_calendar?: string | null | undefined;
  all_day_blocks?: boolean | undefined;
  show_titles?: boolean | undefined;
  customer_name_in_events?: boolean | undefined;
}

function providerFor(
  deps: CalendarDeps,
  serverUrl: string,
  username: string,
  password: string,
): CalendarProvider {
  return caldavProvider({
    serverUrl,
    username,
    password,
    timeoutMs: deps.calendarTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    allowPrivate: deps.config.webhooksAllowPrivate,
  });
}

/** A saved connection's provider, its app password unsealed (throws when the key cannot open it). */
export function connectionProvider(deps: CalendarDeps, row: ConnectionRow): CalendarProvider {
  const password = secretBoxOf(deps.config).open(
    row.password_sealed,
    credentialsContext(row.workspace_id, row.staffer_id),
  );
  return providerFor(deps, row.server_url, row.username, password);
}

/** The typed answer when a calendar server cannot be used for a connect or test. */
export class CalendarConnectFailed extends AppError {
  constructor(field: 'server_url' | 'password', message: string, issue: FieldIssue) {
    super(422, 'calendar_connect_failed', message, { [field]: [message] }, undefined, { [field]: issue });
  }
}

function connectError(error: unknown): never {
  if (error instanceof CalendarProviderError) {
    if (error.kind === 'refused') {
      throw new CalendarConnectFailed(
        'password',
        'The calendar server refused this user name and app password.',
        ruleIssue('calendar_refused'),
      );
    }
    if (error.kind === 'unreachable') {
      throw new CalendarConnectFailed(
        'server_url',
        `The calendar server could not be reached: ${error.message}`,
        ruleIssue('calendar_unreachable', { detail: error.message }),
      );
    }
    throw new CalendarConnectFailed(
      'server_url',
      `No CalDAV calendars were found at this address: ${error.message}`,
      ruleIssue('calendar_not_found', { detail: error.message }),
    );
  }
  throw error;
}

async function requireStaffer(db: Db, workspaceId: string, stafferId: string): Promise<void> {
  if (!(await findStaffer(db, workspaceId, stafferId))) throw notFound('Staffer');
}

async function checkAddress(deps: CalendarDeps, value: string, errors: FieldErrorBag): Promise<void> {
  const problem = await checkWebhookUrl(value, deps.config.webhooksAllowPrivate);
  if (problem) {
    errors.add('server_url', problem.message.replace('The url', 'The server_url'), ruleIssue(problem.rule));
  }
}

/** Discovery without saving ("test connection"): the calendars the account can see. */
export async function testConnection(
  deps: CalendarDeps,
  workspaceId: string,
  stafferId: string,
  input: { server_url: string; username: string; password?: string | undefined },
): Promise<RemoteCalendar[]> {
  await requireStaffer(deps.db, workspaceId, stafferId);
  const errors = new FieldErrorBag();
  await checkAddress(deps, input.server_url, errors);
  const password = input.password ?? (await savedPassword(deps, workspaceId, stafferId, input));
  if (!password) errors.add('password', 'The password field is required.', REQUIRED);
  errors.throwIfAny();
  try {
    return await providerFor(deps, input.server_url, input.username, password!).listCalendars();
  } catch (error) {
    connectError(error);
  }
}

async function savedPassword(
  deps: CalendarDeps,
  workspaceId: string,
  stafferId: string,
  input: { server_url: string; username: string },
): Promise<string | null> {
  const row = await findConnection(deps.db, workspaceId, stafferId);
  if (!row || row.server_url !== input.server_url || row.username !== input.username) return null;
  return secretBoxOf(deps.config).open(row.password_sealed, credentialsContext(workspaceId, stafferId));
}

/**
 * Connects (or changes) a staffer's calendar: the address passes the SSRF guard, the account is
 * tried (discovery), the chosen calendars must be among those found (default: every calendar of
 * events), the app password is sealed. Then a first sync runs; its failure is recorded on the
 * connection, never thrown.
 */
export async function connectCalendar(
  deps: CalendarDeps,
  workspaceId: string,
  stafferId: string,
  input: ConnectionInput,
): Promise<{ connection: ConnectionView; calendars: RemoteCalendar[] }> {
  const calendars = await testConnection(deps, workspaceId, stafferId, input);
  const password = input.password ?? (await savedPassword(deps, workspaceId, stafferId, input))!;
  const errors = new FieldErrorBag();
  const known = new Set(calendars.map((c) => c.url));
  const read = input.read_calendars ?? calendars.filter((c) => c.events).map((c) => c.url);
  for (const url of read) {
    if (!known.has(url)) errors.add('read_calendars', `No calendar ${url} was found for this account.`);
  }
  const write = input.write_calendar ?? null;
  if (write !== null && !known.has(write))
    errors.add('write_calendar', `No calendar ${write} was found for this account.`);
  errors.throwIfAny();
  const sealed = secretBoxOf(deps.config).seal(password, credentialsContext(workspaceId, stafferId));
  const now = new Date(deps.clock.now());
  await deps.uow.run(workspaceId, (tx) =>
    saveConnection(
      tx,
      workspaceId,
      stafferId,
      {
        server_url: input.server_url,
        username: input.username,
        password_sealed: sealed,
        read_calendars: [...new Set(read)],
        write_calendar: write,
        all_day_blocks: input.all_day_blocks ?? true,
        show_titles: input.show_titles ?? false,
        customer_name_in_events: input.customer_name_in_events ?? false,
      },
      now,
    ),
  );
  await syncCalendar(deps, workspaceId, stafferId);
  return { connection: await getConnection(deps.db, workspaceId, stafferId), calendars };
}

export async function getConnection(db: Db, workspaceId: string, stafferId: string): Promise<ConnectionView> {
  const row = await findConnection(db, workspaceId, stafferId);
  if (!row) throw notFound('Calendar connection');
  return presentConnection(row);
}

export async function findConnectionView(
  db: Db,
  workspaceId: string,
  stafferId: string,
): Promise<ConnectionView | null> {
  const row = await findConnection(db, workspaceId, stafferId);
  return row ? presentConnection(row) : null;
}

/** Disconnects: the busy time of that calendar stops blocking at once. */
export async function disconnectCalendar(
  uow: UnitOfWork,
  workspaceId: string,
  stafferId: string,
): Promise<void> {
  const removed = await uow.run(workspaceId, (tx) => deleteConnection(tx, workspaceId, stafferId));
  if (!removed) throw notFound('Calendar connection');
}

export interface SyncOutcome {
  ok: boolean;
  changed: number;
  removed: number;
  methods: ChangeSet['method'][];
  error?: string;
}

/** The wait before the next attempt after `failures` failures in a row (5 min doubling, at most 1 h). */
export function backoffMs(failures: number, refused: boolean): number {
  if (refused) return MAX_BACKOFF_MS;
  return Math.min(SYNC_INTERVAL_MS * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
}

/** Busy spans of stored objects inside the window. Unreadable objects block nothing. */
export function spansOf(
  objects: StoredObject[],
  options: { floatingZone: string; from: number; to: number; allDayBlocks: boolean },
): SpanValues[] {
  const out: SpanValues[] = [];
  for (const object of objects) {
    let instances: ReturnType<typeof busyInstances>;
    try {
      instances = busyInstances(object.ics, options);
    } catch (error) {
      if (error instanceof IcsUnreadable) continue;
      throw error;
    }
    for (const i of instances) {
      if (i.uid.startsWith(OWN_UID_PREFIX)) continue;
      out.push({ href: object.href, start: i.start, end: i.end, allDay: i.allDay, title: i.title });
    }
  }
  return out;
}

/** The calendars a sync asks: those read for busy times, and the one bookings are written to. */
export function calendarsToAsk(row: Pick<ConnectionRow, 'read_calendars' | 'write_calendar'>): string[] {
  return row.write_calendar && !row.read_calendars.includes(row.write_calendar)
    ? [...row.read_calendars, row.write_calendar]
    : row.read_calendars;
}

/**
 * Edits read back: of the objects this sync saw changed or gone, those that are events Kairos
 * wrote for the staffer's bookings are compared with the booking (`outsideChangeOf`); a move or a
 * delete made outside is recorded on the booking's event to apply or ignore in the panel, never
 * applied to the booking here. An event back at the booking's times clears what waited.
 */
async function readBack(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  seen: { changed: StoredObject[]; removed: string[]; zone: string; now: Date },
): Promise<void> {
  const byHref = new Map<string, StoredObject | 'gone'>();
  for (const href of seen.removed) byHref.set(href, 'gone');
  for (const object of seen.changed) byHref.set(object.href, object);
  const written = await writtenEventsAt(tx, workspaceId, stafferId, [...byHref.keys()]);
  for (const event of written) {
    const object = byHref.get(event.href)!;
    const change = outsideChangeOf(
      { etag: event.etag },
      object === 'gone' ? 'gone' : { etag: object.etag, ics: object.ics },
      {
        start: new Date(event.start_time).getTime(),
        end: new Date(event.end_time).getTime(),
        canceled: event.status_type === 'canceled',
      },
      seen.zone,
    );
    if (change === null) {
      if (event.outside_change !== null)
        await setOutsideChange(tx, workspaceId, event.booking_id, null, seen.now);
      continue;
    }
    const start = change.kind === 'moved' ? new Date(change.start) : null;
    if (event.outside_change === change.kind && event.outside_start?.getTime() === start?.getTime()) continue;
    await setOutsideChange(
      tx,
      workspaceId,
      event.booking_id,
      { kind: change.kind, start, end: change.kind === 'moved' ? new Date(change.end) : null },
      seen.now,
    );
    // The staffer is told, once per edit (the email's key names it).
    await queueCalendarEditNotice(
      tx,
      workspaceId,
      event.booking_id,
      change.kind === 'moved' ? `moved-${change.start}` : 'deleted',
      seen.now.getTime(),
    );
  }
}

/**
 * One sync of a staffer's calendar ("sync now" and the worker): the changes of every chosen
 * calendar are asked first; only when all answered are they applied, in one unit of work (so
 * the availability version moves and cached slot answers drop). A failure anywhere applies
 * nothing: the last known busy times stay, the connection says `failing` (or `refused` for
 * 401/403) and the next attempt backs off. Never throws for a calendar's failure.
 */
export async function syncCalendar(
  deps: CalendarDeps,
  workspaceId: string,
  stafferId: string,
): Promise<SyncOutcome> {
  const row = await findConnection(deps.db, workspaceId, stafferId);
  if (!row) throw notFound('Calendar connection');
  const started = deps.clock.now();
  const now = new Date(started);
  let password: string;
  try {
    password = secretBoxOf(deps.config).open(row.password_sealed, credentialsContext(workspaceId, stafferId));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordSyncFailure(deps.db, workspaceId, stafferId, {
      status: 'refused',
      error: message,
      now,
      nextSyncAt: new Date(started + MAX_BACKOFF_MS),
    });
    return { ok: false, changed: 0, removed: 0, methods: [], error: message };
  }
  const provider = providerFor(deps, row.server_url, row.username, password);
  const sets: { calendarUrl: string; set: ChangeSet }[] = [];
  try {
    for (const calendarUrl of calendarsToAsk(row)) {
      const known = await knownObjects(deps.db, workspaceId, stafferId, calendarUrl);
      const state = row.sync_state[calendarUrl] ?? null;
      sets.push({ calendarUrl, set: await provider.changes(calendarUrl, state, known) });
    }
  } catch (error) {
    if (!(error instanceof CalendarProviderError)) throw error;
    const refused = error.kind === 'refused';
    await recordSyncFailure(deps.db, workspaceId, stafferId, {
      status: refused ? 'refused' : 'failing',
      error: error.message,
      now,
      nextSyncAt: new Date(started + backoffMs(row.failure_count + 1, refused)),
    });
    return {
      ok: false,
      changed: 0,
      removed: 0,
      methods: sets.map((s) => s.set.method),
      error: error.message,
    };
  }

  const facts = await stafferSyncFacts(deps.db, workspaceId, stafferId);
  const window = { from: started - DAY_MS, to: started + (facts.horizonDays + 2) * DAY_MS };
  const expandOptions = { floatingZone: facts.zone, allDayBlocks: row.all_day_blocks, ...window };
  // The window moves a day at a time: once it has, every stored object is expanded again.
  const reexpand = !row.expanded_until || row.expanded_until.getTime() < window.to - DAY_MS;
  const changed: StoredObject[] = [];
  const removed: string[] = [];
  for (const { calendarUrl, set } of sets) {
    for (const c of set.changed) changed.push({ href: c.href, calendarUrl, etag: c.etag, ics: c.ics });
    removed.push(...set.removed);
    if (set.full) {
      const keep = new Set(set.changed.map((c) => c.href));
      removed.push(...(await objectsMissingFrom(deps.db, workspaceId, stafferId, calendarUrl, keep)));
    }
  }
  const syncState = { ...row.sync_state };
  for (const { calendarUrl, set } of sets) syncState[calendarUrl] = set.state;

  if (changed.length > 0 || removed.length > 0 || reexpand) {
    const reading = new Set(row.read_calendars);
    await deps.uow.run(workspaceId, async (tx) => {
      if (removed.length > 0) await deleteObjects(tx, workspaceId, stafferId, removed);
      if (changed.length > 0) await upsertObjects(tx, workspaceId, stafferId, changed);
      await readBack(tx, workspaceId, stafferId, { changed, removed, zone: facts.zone, now });
      const objects = reexpand ? await allObjects(tx, workspaceId, stafferId) : changed;
      // The write calendar is asked for the read-back only: its events block when it is also read.
      const spans = spansOf(
        objects.filter((o) => reading.has(o.calendarUrl)),
        expandOptions,
      );
      await replaceSpans(
        tx,
        workspaceId,
        stafferId,
        objects.map((o) => o.href),
        spans,
      );
      await rebuildBusyBlocks(tx, workspaceId, stafferId);
    });
  }
  await recordSyncSuccess(deps.db, workspaceId, stafferId, {
    syncState,
    now,
    nextSyncAt: new Date(started + SYNC_INTERVAL_MS),
    expandedUntil: reexpand ? new Date(window.to) : null,
  });
  return {
    ok: true,
    changed: changed.length,
    removed: removed.length,
    methods: sets.map((s) => s.set.method),
  };
}

/** "Sync now": one sync, and the connection after it. */
export async function syncNow(
  deps: CalendarDeps,
  workspaceId: string,
  stafferId: string,
): Promise<{
  data: ConnectionView;
  sync: { ok: boolean; changed: number; removed: number; error: string | null };
}> {
  await requireStaffer(deps.db, workspaceId, stafferId);
  const outcome = await syncCalendar(deps, workspaceId, stafferId);
  return {
    data: await getConnection(deps.db, workspaceId, stafferId),
    sync: {
      ok: outcome.ok,
      changed: outcome.changed,
      removed: outcome.removed,
      error: outcome.error ?? null,
    },
  };
}

export interface BusyTimeView {
  start_time: string;
  end_time: string;
  all_day: boolean;
  title: string | null;
}

/** The outside busy times of staffers in [from, to) (titles only where the staffer shows them). */
export async function busyTimes(
  db: Db,
  workspaceId: string,
  stafferIds: string[],
  from: number,
  to: number,
): Promise<(BusyTimeView & { staffer_id: string })[]> {
  const rows = await busySpansBetween(db, workspaceId, stafferIds, new Date(from), new Date(to));
  return rows.map((r) => ({
    staffer_id: r.staffer_id,
    start_time: new Date(r.start_ms).toISOString(),
    end_time: new Date(r.end_ms).toISOString(),
    all_day: r.all_day,
    title: r.title === '' ? null : r.title,
  }));
}

/** GET /staffers/{uuid}/busy-times. */
export async function stafferBusyTimes(
  db: Db,
  workspaceId: string,
  stafferId: string,
  query: { from: string; to: string },
): Promise<BusyTimeView[]> {
  await requireStaffer(db, workspaceId, stafferId);
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  if (!(to > from) || to - from > 92 * DAY_MS) {
    throw new AppError(422, 'validation_failed', 'The to field must be after from, at most 92 days later.', {
      to: ['The to field must be after from, at most 92 days later.'],
    });
  }
  return (await busyTimes(db, workspaceId, [stafferId], from, to)).map(({ staffer_id: _s, ...view }) => view);
}

export interface CalendarWarning {
  stafferId: string;
  name: string;
  status: 'failing' | 'refused';
}

/** Staffers whose calendar does not sync (the home page tells those who manage the team). */
export async function calendarWarnings(db: Db, workspaceId: string): Promise<CalendarWarning[]> {
  const rows = await failingConnections(db, workspaceId);
  return rows.map((r) => ({
    stafferId: r.staffer_id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    status: r.status,
  }));
}
