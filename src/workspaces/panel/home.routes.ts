import type { FastifyInstance } from 'fastify';
import { todaysAgenda } from '../../calendar/agenda.service.js';
import { calendarWarnings } from '../../calendar-sync/calendar-sync.service.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import type { AppDeps } from '../../platform/http/types.js';
import { type AttentionKind, glanceOf } from '../../reports/glance.service.js';
import { can } from '../../users/roles.js';
import { nextSetupStep } from '../setup-progress.service.js';
import { HomePage } from './home.page.js';

export function homeRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/', async (request, reply) => {
    const session = sessionOf(request);
    const context = await panelContextOf(request);
    const query = request.query as Record<string, string | undefined>;
    const { role } = session.workspace;
    const fixes: AttentionKind[] = [
      ...(can(role, 'developers') ? (['webhooks'] as const) : []),
      ...(can(role, 'notifications') ? (['emails', 'texts'] as const) : []),
      ...(can(role, 'reports') ? (['payments'] as const) : []),
      ...(can(role, 'bookings') ? (['holds', 'waitlistExpired', 'waitlistWaiting'] as const) : []),
    ];
    const [agenda, setupStep, glance, calendars] = await Promise.all([
      todaysAgenda(deps.db, { workspaceId: context.workspace.id, userId: session.user.id, now: context.now }),
      can(role, 'setup') ? nextSetupStep(deps.db, context.workspace.id) : undefined,
      glanceOf(deps.db, {
        workspaceId: context.workspace.id,
        userId: session.user.id,
        now: context.now,
        seesRevenue: can(role, 'reports'),
        fixes,
      }),
      can(role, 'setup') ? calendarWarnings(deps.db, context.workspace.id) : [],
    ]);
    return reply.page({
      title: session.workspace.name,
      body: HomePage({
        session,
        agenda,
        glance,
        currency: context.workspace.currency,
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
