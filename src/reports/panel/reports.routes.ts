import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import type { AppDeps } from '../../platform/http/types.js';
import { isReportKind, requestReport } from '../reports.service.js';
import { reportCsv } from './report-format.js';
import { REPORTS, REPORTS_CSS, ReportsPage } from './reports.page.js';

/** Owners and admins: the figures of the business (docs/reports.md). */
const access = { config: { panelAccess: 'reports' as const } };

export function reportsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/reports', access, async (request, reply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${REPORTS}/revenue${search}`, 303);
  });

  panel.get<{ Params: { kind: string } }>('/reports/:kind', access, async (request, reply) => {
    const { kind } = request.params;
    if (!isReportKind(kind)) throw notFound('Report');
    const context = await panelContextOf(request);
    const text = panelTextOf(request);
    const { report, problems, locations } = await requestReport(
      deps.db,
      context.workspace.id,
      kind,
      request.query as Record<string, unknown>,
      context.now,
    );
    return reply.page({
      title: `${text.t('reports.title')} · ${text.t(`reports.kind.${kind}`)}`,
      status: problems.length > 0 ? 422 : 200,
      body: ReportsPage({
        report,
        problems,
        locations,
        words: { text, currency: context.workspace.currency },
      }),
      css: REPORTS_CSS,
    });
  });

  panel.get<{ Params: { kind: string; table: string } }>(
    '/reports/:kind/:table.csv',
    access,
    async (request, reply) => {
      const { kind } = request.params;
      if (!isReportKind(kind)) throw notFound('Report');
      const context = await panelContextOf(request);
      const { report, problems } = await requestReport(
        deps.db,
        context.workspace.id,
        kind,
        request.query as Record<string, unknown>,
        context.now,
      );
      const table = report.tables.find((candidate) => candidate.id === request.params.table);
      if (!table || problems.length > 0) throw notFound('Report');
      const { period } = report;
      const csv = reportCsv(report, table, {
        text: panelTextOf(request),
        currency: context.workspace.currency,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${kind}-${table.id}-${period.from}-${period.to}.csv"`,
        )
        .send(`\ufeff${csv}`);
    },
  );
}
