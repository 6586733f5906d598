import type { FastifyInstance } from 'fastify';
import { renderToString } from 'preact-render-to-string';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import type { AppDeps } from '../../platform/http/types.js';
import { BoundedCache } from '../../slots/bounded-cache.js';
import { can } from '../../users/roles.js';
import type { CalendarModel } from '../calendar.service.js';
import { loadCalendar } from '../calendar.service.js';
import { CalendarGrid, CalendarPage, GridStyles, scaleOf } from './calendar.page.js';

/**
 * Rendered grids (HTML and their geometry CSS) per availability version and view: nothing in a
 * grid depends on the session or the clock, and every write that could change one (bookings,
 * customers, staffers, hours, statuses, settings) moves the version on. The week of a busy
 * location is ~300 kB of HTML whose rendering is most of the page's CPU. Bounded by bytes held.
 */
const grids = new BoundedCache<{ html: string; css: string }>(
  64 * 1024 * 1024,
  (g) => g.html.length + g.css.length,
);

function gridKey(model: CalendarModel, version: string, slotStep: number, text: PanelText): string {
  const { location, view, date, staffer, by } = model;
  return `${location.id}|${version}|${view}|${by}|${date}|${staffer?.id ?? 'all'}|${slotStep}|${text.lang}|${text.locale}`;
}

const access = { config: { panelAccess: 'bookings' as const } };

const NOTICES: Record<string, PanelKey> = {
  moved: 'calendar.moved',
  created: 'calendar.created',
};

/** The bookings calendar: a location's day or week, everyone's or one staffer's. */
export function calendarRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/calendar', access, async (request, reply) => {
    const session = sessionOf(request);
    const query = request.query as Record<string, string | undefined>;
    const { workspace } = await panelContextOf(request);
    const text = panelTextOf(request);
    const model = await loadCalendar(deps.db, {
      workspaceId: workspace.id,
      userId: session.user.id,
      role: session.workspace.role,
      now: deps.clock.now(),
      availability: deps.availability,
      query: {
        location: query.location,
        date: query.date,
        view: query.view,
        staffer: query.staffer,
        by: query.by,
      },
    });
    if ('empty' in model) {
      return reply.page({
        title: text.t('calendar.title'),
        body: EmptyCalendar({ canSetup: can(session.workspace.role, 'setup'), text }),
      });
    }
    // The version is read before the grid is rendered, so a grid never outlives a write it missed.
    const key = `${workspace.id}|${gridKey(model, await deps.availability.version(workspace.id), workspace.slot_step_minutes, text)}`;
    let grid = grids.get(key);
    if (!grid) {
      const styles = new GridStyles(scaleOf(model));
      const html = renderToString(
        CalendarGrid({ model, styles, slotStep: workspace.slot_step_minutes, text }),
      );
      grid = { html, css: styles.css() };
      grids.set(key, grid);
    }
    const body = CalendarPage({
      model,
      csrf: reply.csrf(),
      gridHtml: grid.html,
      canSetup: can(session.workspace.role, 'setup'),
      notice: query.notice && NOTICES[query.notice] ? text.t(NOTICES[query.notice]!) : undefined,
      text,
    });
    return reply.page({ title: text.t('calendar.title'), body, css: grid.css, islands: ['calendar'] });
  });
}

function EmptyCalendar({ canSetup, text: { t } }: { canSetup: boolean; text: PanelText }) {
  return (
    <>
      <h1>{t('calendar.title')}</h1>
      <p class="card">
        {t('calendar.noLocation')}{' '}
        {canSetup ? (
          <a href={`${PANEL_PREFIX}/setup/locations`}>{t('calendar.addLocation')}</a>
        ) : (
          t('calendar.ownerAdds')
        )}
      </p>
    </>
  );
}
