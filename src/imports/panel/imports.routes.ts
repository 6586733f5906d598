import type { FastifyInstance } from 'fastify';
import { recordAccess } from '../../audit/audit.service.js';
import { bookingsCsv } from '../../bookings/bookings-export.service.js';
import { customersCsv } from '../../customers/customers-export.service.js';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { isImportKind } from '../import-rows.rules.js';
import { MAX_UPLOAD_BYTES, runUpload, storeUpload, uploadReport } from '../imports.service.js';
import { DATA, DataPage, ImportPage } from './imports.page.js';

/** Owners and admins, as the workspace settings: the whole customer list leaves with an export. */
const access = { config: { panelAccess: 'settings' as const } };
/** A form-encoded 5 MB file with its escapes; the service refuses more than 5 MB of text. */
const uploadLimit = { ...access, bodyLimit: 4 * MAX_UPLOAD_BYTES };

const day = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;

/** Settings → Import and export (docs/import-export.md). */
export function importsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/settings/data', access, async (request, reply) => {
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.importExport'),
      body: DataPage({ csrf: reply.csrf(), text }),
      islands: ['csv-file'],
    });
  });

  panel.get('/settings/data/customers.csv', access, async (request, reply) => {
    const { workspace, actor } = await panelContextOf(request);
    await recordAccess(deps.uow, workspace.id, actor, 'data.customers_exported', null);
    return csvFile(reply, `customers-${workspace.slug}.csv`, await customersCsv(deps.db, workspace.id));
  });

  panel.get('/settings/data/bookings.csv', access, async (request, reply) => {
    const { workspace, actor } = await panelContextOf(request);
    const query = request.query as Record<string, unknown>;
    const from = day(query.from);
    const to = day(query.to);
    await recordAccess(deps.uow, workspace.id, actor, 'data.bookings_exported', null, { from, to });
    const csv = await bookingsCsv(deps.db, workspace, {
      ...(from ? { reserved_on_from: new Date(`${from}T00:00:00Z`) } : {}),
      ...(to ? { reserved_on_to: new Date(`${to}T23:59:59.999Z`) } : {}),
    });
    return csvFile(
      reply,
      `bookings-${workspace.slug}${from ? `-${from}` : ''}${to ? `-${to}` : ''}.csv`,
      csv,
    );
  });

  panel.post('/settings/data/imports', uploadLimit, async (request, reply) => {
    const context = await panelContextOf(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      return await redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
        const id = await storeUpload(
          { ...context, db: uow.db, uow },
          {
            kind: body.kind,
            csv: body.csv,
            fileName: body.file_name,
          },
        );
        return `${DATA}/imports/${id}`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('nav.importExport'),
        status: 422,
        body: DataPage({
          csrf: reply.csrf(),
          text,
          error: Object.values(formErrorsOf(error, panelTextOf(request).t))
            .flat()
            .join(' '),
          ...(isImportKind(body.kind) ? { kind: body.kind } : {}),
        }),
        islands: ['csv-file'],
      });
    }
  });

  panel.get('/settings/data/imports/:uploadUuid', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const { id, fileName, report } = await uploadReport(
      { ...context, db: deps.db },
      uuidParam(request, 'uploadUuid'),
    );
    const text = panelTextOf(request);
    return reply.page({
      title: report.ran ? text.t('data.done') : text.t('data.previewTitle'),
      body: ImportPage({ id, fileName, report, csrf: reply.csrf(), text }),
    });
  });

  panel.post('/settings/data/imports/:uploadUuid/run', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const id = uuidParam(request, 'uploadUuid');
    // The rows commit one by one (each its own unit of work), so the run is not inside the form
    // key's transaction: the upload's claim makes a second submit a no-op instead.
    await runUpload({ ...context, db: deps.db, uow: deps.uow }, id);
    return reply.redirect(`${DATA}/imports/${id}`, 303);
  });
}

function csvFile(reply: import('fastify').FastifyReply, name: string, csv: string) {
  return (
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      // A BOM, so spreadsheets open the file as UTF-8 (names with accents, €).
      .send(`\ufeff${csv}`)
  );
}
