import { Data, DataList, NoContent, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { StafferParams } from '../../staffers/staffers.schemas.js';
import {
  BusyTimeJson,
  BusyTimesQuery,
  CalendarConnectAnswer,
  CalendarConnectBody,
  CalendarConnectionJson,
  CalendarSyncAnswer,
  CalendarTestBody,
  RemoteCalendarJson,
} from '../calendar-sync.schemas.js';
import {
  connectCalendar,
  disconnectCalendar,
  getConnection,
  stafferBusyTimes,
  syncNow,
  testConnection,
} from '../calendar-sync.service.js';

/** A staffer's own calendar over CalDAV (docs/calendar-sync.md). */
export async function calendarSyncRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/staffers/:stafferUuid/calendar-connection',
    {
      schema: {
        tags: ['management'],
        summary: "A staffer's calendar connection (never the password)",
        params: StafferParams,
        response: responses({ 200: Data(CalendarConnectionJson) }),
      },
    },
    async (request) => ({
      data: await getConnection(deps.db, request.auth.workspace.id, request.params.stafferUuid),
    }),
  );

  app.post(
    '/staffers/:stafferUuid/calendar-connection/test',
    {
      schema: {
        tags: ['management'],
        summary: 'Test a CalDAV account: discovery, and the calendars it can see (nothing saved)',
        params: StafferParams,
        body: CalendarTestBody,
        response: responses({ 200: DataList(RemoteCalendarJson) }),
      },
    },
    async (request) => ({
      data: await testConnection(deps, request.auth.workspace.id, request.params.stafferUuid, request.body),
    }),
  );

  app.put(
    '/staffers/:stafferUuid/calendar-connection',
    {
      schema: {
        tags: ['management'],
        summary: "Connect or change a staffer's calendar (tests it, saves it, runs a first sync)",
        params: StafferParams,
        body: CalendarConnectBody,
        response: responses({ 200: CalendarConnectAnswer }),
      },
    },
    async (request) => {
      const { connection, calendars } = await connectCalendar(
        deps,
        request.auth.workspace.id,
        request.params.stafferUuid,
        request.body,
      );
      return { data: connection, calendars };
    },
  );

  app.post(
    '/staffers/:stafferUuid/calendar-connection/sync',
    {
      schema: {
        tags: ['management'],
        summary: 'Sync now: read the changes of the chosen calendars',
        params: StafferParams,
        response: responses({ 200: CalendarSyncAnswer }),
      },
    },
    async (request) => syncNow(deps, request.auth.workspace.id, request.params.stafferUuid),
  );

  app.delete(
    '/staffers/:stafferUuid/calendar-connection',
    {
      schema: {
        tags: ['management'],
        summary: "Disconnect a staffer's calendar: its busy times stop blocking at once (204)",
        params: StafferParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await disconnectCalendar(deps.uow, request.auth.workspace.id, request.params.stafferUuid);
      return reply.code(204).send();
    },
  );

  app.get(
    '/staffers/:stafferUuid/busy-times',
    {
      schema: {
        tags: ['management'],
        summary: "Outside busy times of a staffer's calendar (titles only if the staffer shows them)",
        params: StafferParams,
        querystring: BusyTimesQuery,
        response: responses({ 200: DataList(BusyTimeJson) }),
      },
    },
    async (request) => ({
      data: await stafferBusyTimes(
        deps.db,
        request.auth.workspace.id,
        request.params.stafferUuid,
        request.query,
      ),
    }),
  );
}
