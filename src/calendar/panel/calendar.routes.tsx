import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../platform/http/types.js';
import { PANEL_PREFIX } from '../../surfaces/panel/layout.js';
import { sessionOf } from '../../surfaces/panel/panel-auth.js';
import { can } from '../../users/roles.js';
import { findWorkspaceById } from '../../workspaces/workspaces.repository.js';
import { loadCalendar } from '../calendar.service.js';
import { CalendarPage, GridStyles, scaleOf } from './calendar.page.js';

const access = { config: { panelAccess: 'bookings' as const } };

const NOTICES: Record<string, string> = {
  moved: 'The booking is moved.',
  created: 'The booking is made.',
};

/** The bookings calendar: a location's day or week, everyone's or one staffer's (issue 13 §1). */
export function calendarRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/calendar', access, async (request, reply) => {
    const session = sessionOf(request);
    const query = request.query as Record<string, string | undefined>;
    const workspace = await findWorkspaceById(deps.db, session.workspace.id);
    if (!workspace) throw notFound('Workspace');
    const model = await loadCalendar(deps.db, {
      workspaceId: workspace.id,
      userId: session.user.id,
      role: session.workspace.role,
      now: deps.clock.now(),
      availability: deps.availability,
      query: { location: query.location, date: query.date, view: query.view, staffer: query.staffer },
    });
    if ('empty' in model) {
      return reply.page({
        title: 'Calendar',
        body: EmptyCalendar({ canSetup: can(session.workspace.role, 'setup') }),
      });
    }
    const styles = new GridStyles(scaleOf(model));
    const body = CalendarPage({
      model,
      csrf: reply.csrf(),
      styles,
      canSetup: can(session.workspace.role, 'setup'),
      notice: NOTICES[query.notice ?? ''],
      slotStep: workspace.slot_step_minutes,
    });
    return reply.page({ title: 'Calendar', body, css: styles.css(), islands: ['calendar'] });
  });
}

function EmptyCalendar({ canSetup }: { canSetup: boolean }) {
  return (
    <>
      <h1>Calendar</h1>
      <p class="card">
        There is no location yet, so there is nothing to show.{' '}
        {canSetup ? (
          <a href={`${PANEL_PREFIX}/setup/locations`}>Add a location</a>
        ) : (
          'An owner or admin adds one.'
        )}
      </p>
    </>
  );
}
