import type { FastifyInstance } from 'fastify';
import { todaysAgenda } from '../../calendar/agenda.service.js';
import { calendarWarnings } from '../../calendar-sync/calendar-sync.service.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import type { AppDeps } from '../../platform/http/types.js';
import { can } from '../../users/roles.js';
import { nextSetupStep } from '../setup-progress.service.js';
import { HomePage } from './home.page.js';

export function homeRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/', async (request, reply) => {
    const session = sessionOf(request);
    const context = await panelContextOf(request);
    const query = request.query as Record<string, string | undefined>;
    const [agenda, setupStep, calendars] = await Promise.all([
      todaysAgenda(deps.db, { workspaceId: context.workspace.id, userId: session.user.id, now: context.now }),
      can(session.workspace.role, 'setup') ? nextSetupStep(deps.db, context.workspace.id) : undefined,
      can(session.workspace.role, 'setup') ? calendarWarnings(deps.db, context.workspace.id) : [],
    ]);
    return reply.page({
      title: session.workspace.name,
      body: HomePage({
        session,
        agenda,
        setupStep,
        calendarWarnings: calendars,
        bookingPageUrl: `${context.linkBase}/book/${context.workspace.slug}`,
        text: panelTextOf(request),
        welcome: query.notice === 'password-set',
      }),
      islands: ['copy-text'],
    });
  });
}
