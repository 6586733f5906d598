import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { forbidden, type PanelAccess, sessionOf } from '../../panel-kit/panel-auth.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import type { AppDeps } from '../../platform/http/types.js';
import { getStaffer } from '../../staffers/staffers.service.js';
import {
  type ConnectionView,
  connectCalendar,
  disconnectCalendar,
  findConnectionView,
  openDraftPassword,
  ownStafferOf,
  sealDraftPassword,
  syncNow,
  testConnection,
} from '../calendar-sync.service.js';
import type { RemoteCalendar } from '../providers/calendar-provider.js';
import { CalendarConnectPage, OPTIONS, UnlinkedCalendarPage } from './calendar-connect.page.js';

const NOTICES: Record<string, PanelKey> = {
  connected: 'calsync.connected',
  synced: 'calsync.synced',
  disconnected: 'calsync.disconnected',
};

/** Whose calendar a request is about, and how the page names it. */
interface Target {
  workspaceId: string;
  stafferId: string;
  stafferName: string;
  base: string;
  title: string;
  back?: { href: string; label: string };
}

/** A refusal of the account or the form (422, with field errors) to show on the form; anything else goes on. */
function formErrors(error: unknown, t: PanelText['t']): FieldErrors {
  if (error instanceof AppError && error.statusCode === 422) {
    return error.errors ? formErrorsOf(error, t) : { server_url: [refusalOf(error, t)] };
  }
  throw error;
}

const accountValues = (body: unknown) => ({
  server_url: str(body, 'server_url').trim(),
  username: str(body, 'username').trim(),
});

/** The settings the connect step sends, or (first connect) the defaults: all-day events block. */
function settingsValues(connection: ConnectionView | null, calendars: RemoteCalendar[]): FormState['values'] {
  if (!connection) {
    return {
      read_calendars: calendars.filter((c) => c.events).map((c) => c.url),
      write_calendar: '',
      options: ['all_day_blocks'],
    };
  }
  return {
    read_calendars: connection.read_calendars,
    write_calendar: connection.write_calendar ?? '',
    options: OPTIONS.filter((option) => connection[option]),
  };
}

/**
 * The panel's connect flow for a staffer's own calendar (docs/calendar-sync.md), twice: under a
 * staffer's page for owners and admins (`setup`), and as "Your calendar" for a member linked to a
 * staffer, which only ever reaches that member's own staffer (no staffer in its address). Every
 * step calls the API's services: discovery and the SSRF guard in `testConnection`, the save and
 * first sync in `connectCalendar`; their refusals show on the form.
 */
export function calendarSyncPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    target: Target,
    state: {
      form?: FormState;
      found?: { calendars: RemoteCalendar[]; sealed: string; form: FormState };
      status?: number;
    } = {},
  ) {
    const text = panelTextOf(request);
    const connection = await findConnectionView(deps.db, target.workspaceId, target.stafferId);
    const key = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
    const form =
      state.form ??
      emptyForm(connection ? { server_url: connection.server_url, username: connection.username } : {});
    return reply.page({
      title: target.title,
      status: state.status ?? 200,
      body: CalendarConnectPage({
        text,
        csrf: reply.csrf(),
        base: target.base,
        title: target.title,
        stafferName: target.stafferName,
        back: target.back,
        connection,
        form,
        found: state.found,
        notice: key && !state.status ? text.t(key) : undefined,
      }),
    });
  }

  /** "Test connection": discovery with the account typed (or the saved password), then the calendars. */
  async function test(request: FastifyRequest, reply: FastifyReply, target: Target) {
    const values = accountValues(request.body);
    const typed = str(request.body, 'password');
    const form = emptyForm(values);
    try {
      const calendars = await testConnection(deps, target.workspaceId, target.stafferId, {
        ...values,
        password: typed === '' ? undefined : typed,
      });
      const connection = await findConnectionView(deps.db, target.workspaceId, target.stafferId);
      // An empty password keeps the saved one (testConnection opened it): nothing to carry on.
      const sealed = typed === '' ? '' : sealDraftPassword(deps, target.workspaceId, target.stafferId, typed);
      return render(request, reply, target, {
        form,
        found: { calendars, sealed, form: emptyForm(settingsValues(connection, calendars)) },
      });
    } catch (error) {
      return render(request, reply, target, {
        form: { ...form, errors: formErrors(error, panelTextOf(request).t) },
        status: 422,
      });
    }
  }

  /** The second step: save the account with the chosen calendars and settings (a first sync runs). */
  async function connect(request: FastifyRequest, reply: FastifyReply, target: Target) {
    const values = accountValues(request.body);
    const sealed = str(request.body, 'sealed_password');
    const password = openDraftPassword(deps, target.workspaceId, target.stafferId, sealed);
    const options = new Set(list(request.body, 'options'));
    const read = list(request.body, 'read_calendars');
    const write = str(request.body, 'write_calendar');
    try {
      if (sealed !== '' && password === undefined) {
        throw new AppError(422, 'validation_failed', 'The form expired.', {
          password: [panelTextOf(request).t('calsync.expired')],
        });
      }
      await connectCalendar(deps, target.workspaceId, target.stafferId, {
        ...values,
        password,
        read_calendars: read,
        write_calendar: write === '' ? null : write,
        all_day_blocks: options.has('all_day_blocks'),
        show_titles: options.has('show_titles'),
        customer_name_in_events: options.has('customer_name_in_events'),
      });
      return reply.redirect(`${target.base}?notice=connected`, 303);
    } catch (error) {
      // Back to the first step with the refusal beside its field (the password is typed again).
      return render(request, reply, target, {
        form: { values, errors: formErrors(error, panelTextOf(request).t) },
        status: 422,
      });
    }
  }

  async function sync(reply: FastifyReply, target: Target) {
    await syncNow(deps, target.workspaceId, target.stafferId);
    return reply.redirect(`${target.base}?notice=synced`, 303);
  }

  async function disconnect(reply: FastifyReply, target: Target) {
    await disconnectCalendar(deps.uow, target.workspaceId, target.stafferId);
    return reply.redirect(`${target.base}?notice=disconnected`, 303);
  }

  function routes(
    path: string,
    access: PanelAccess,
    targetOf: (request: FastifyRequest) => Promise<Target>,
    unlinked?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
  ) {
    const config = { config: { panelAccess: access } };
    panel.get(path, config, async (request, reply) => {
      try {
        return await render(request, reply, await targetOf(request));
      } catch (error) {
        if (unlinked && error instanceof AppError && error.code === 'not_a_staffer') {
          return unlinked(request, reply);
        }
        throw error;
      }
    });
    panel.post(`${path}/test`, config, async (request, reply) =>
      test(request, reply, await targetOf(request)),
    );
    panel.post(path, config, async (request, reply) => connect(request, reply, await targetOf(request)));
    panel.post(`${path}/sync`, config, async (request, reply) => sync(reply, await targetOf(request)));
    panel.post(`${path}/disconnect`, config, async (request, reply) =>
      disconnect(reply, await targetOf(request)),
    );
  }

  const STAFFERS = `${PANEL_PREFIX}/setup/staffers`;
  routes('/setup/staffers/:stafferUuid/calendar', 'setup', async (request) => {
    const workspaceId = sessionOf(request).workspace.id;
    const staffer = await getStaffer(deps.db, workspaceId, uuidParam(request, 'stafferUuid'));
    const name = `${staffer.first_name} ${staffer.last_name}`.trim();
    return {
      workspaceId,
      stafferId: staffer.id,
      stafferName: name,
      base: `${STAFFERS}/${staffer.id}/calendar`,
      title: panelTextOf(request).t('calsync.titleOf', { name }),
      back: { href: `${STAFFERS}/${staffer.id}`, label: name },
    };
  });

  const OWN = `${PANEL_PREFIX}/account/calendar`;
  routes(
    '/account/calendar',
    'signed-in',
    async (request) => {
      const session = sessionOf(request);
      const own = await ownStafferOf(deps.db, session.workspace.id, session.user.id);
      // A member who is no staffer has no calendar here: the page says so, every write refuses.
      if (!own) throw new AppError(403, 'not_a_staffer', forbidden().message);
      return {
        workspaceId: session.workspace.id,
        stafferId: own.id,
        stafferName: own.name,
        base: OWN,
        title: panelTextOf(request).t('nav.yourCalendar'),
      };
    },
    async (request, reply) => {
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('nav.yourCalendar'),
        body: UnlinkedCalendarPage({ text }),
      });
    },
  );
}
