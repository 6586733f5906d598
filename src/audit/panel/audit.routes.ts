import type { FastifyInstance, FastifyRequest } from 'fastify';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { pageParam } from '../../panel-kit/list-pager.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import type { AppDeps } from '../../platform/http/types.js';
import type { AuditFilters } from '../audit.repository.js';
import { AUDIT_GROUPS, auditCsv, auditPage } from '../audit.service.js';
import { AuditPage, type AuditQuery } from './audit.page.js';

/** Owners, as the team: the log shows what every member did. */
const access = { config: { panelAccess: 'team' as const } };
const PER_PAGE = 50;

const day = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

function queryOf(request: FastifyRequest): AuditQuery {
  const raw = request.query as Record<string, unknown>;
  const group = typeof raw.group === 'string' && raw.group in AUDIT_GROUPS ? raw.group : '';
  const who =
    typeof raw.actor === 'string' && ['user', 'api_key', 'cli', 'system'].includes(raw.actor)
      ? raw.actor
      : '';
  return { group, who, from: day(raw.from), to: day(raw.to), page: pageParam(request.query) };
}

function filtersOf(query: AuditQuery): AuditFilters {
  return {
    ...(query.group ? { actionPrefix: `${query.group}.` } : {}),
    ...(query.who ? { actorType: query.who } : {}),
    ...(query.from ? { from: new Date(`${query.from}T00:00:00Z`) } : {}),
    ...(query.to ? { before: new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/** Settings → Audit log (docs/audit-log.md). */
export function auditPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/settings/audit', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const query = queryOf(request);
    // One more than a page: whether there is an older page, without counting the whole log.
    const entries = await auditPage(deps.db, workspace.id, filtersOf(query), {
      limit: PER_PAGE + 1,
      offset: (query.page - 1) * PER_PAGE,
    });
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.auditLog'),
      body: AuditPage({
        query,
        entries: entries.slice(0, PER_PAGE),
        hasMore: entries.length > PER_PAGE,
        text,
      }),
    });
  });

  panel.get('/settings/audit.csv', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const csv = await auditCsv(deps.db, workspace.id, filtersOf(queryOf(request)));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${workspace.slug}.csv"`)
      .send(`\ufeff${csv}`);
  });
}
