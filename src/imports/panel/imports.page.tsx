import { PostForm } from '../../panel-kit/forms.js';
import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { IMPORT_COLUMNS, IMPORT_KINDS, type ImportKind } from '../import-rows.rules.js';
import type { ImportReport, RowAction } from '../imports.service.js';

export const DATA = `${PANEL_PREFIX}/settings/data`;

const KIND_LABELS: Record<ImportKind, PanelKey> = {
  customers: 'data.kind.customers',
  services: 'data.kind.services',
  staffers: 'data.kind.staffers',
  bookings: 'data.kind.bookings',
};

/** What a row will do (preview) and what it did (after the run). */
const ACTION_LABELS: Record<RowAction, [PanelKey, PanelKey]> = {
  create: ['data.action.create', 'data.action.created'],
  update: ['data.action.update', 'data.action.updated'],
  unchanged: ['data.action.unchanged', 'data.action.unchanged'],
  error: ['data.action.error', 'data.action.notImported'],
};

/** Settings → Import and export: the two exports, and the import form. */
export function DataPage(props: {
  csrf: string;
  error?: string | undefined;
  kind?: ImportKind;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <h1>{t('nav.importExport')}</h1>
      <h2>{t('data.export')}</h2>
      <div class="card">
        <p>
          <a href={`${DATA}/customers.csv`} download>
            {t('data.customersCsv')}
          </a>
        </p>
        <form method="get" action={`${DATA}/bookings.csv`} aria-label={t('data.exportBookings')}>
          <div class="row">
            <div class="field">
              <label for="export-from">{t('data.bookingsFrom')}</label>
              <input id="export-from" name="from" type="date" />
            </div>
            <div class="field">
              <label for="export-to">{t('data.to')}</label>
              <input id="export-to" name="to" type="date" />
            </div>
          </div>
          <p class="muted">{t('data.datesHint')}</p>
          <button type="submit" class="secondary">
            {t('data.bookingsCsv')}
          </button>
        </form>
      </div>
      <h2>{t('data.import')}</h2>
      <div class="card">
        <p>{t('data.importLead')}</p>
        <table class="stack" aria-label={t('data.columnsTable')}>
          <thead>
            <tr>
              <th scope="col">{t('data.import')}</th>
              <th scope="col">{t('data.required')}</th>
              <th scope="col">{t('data.optional')}</th>
            </tr>
          </thead>
          <tbody>
            {IMPORT_KINDS.map((kind) => (
              <tr key={kind}>
                <td data-label={t('data.import')}>{t(KIND_LABELS[kind])}</td>
                <td data-label={t('data.required')}>
                  <code>{IMPORT_COLUMNS[kind].required.join(', ')}</code>
                </td>
                <td data-label={t('data.optional')}>
                  <code>{IMPORT_COLUMNS[kind].optional.join(', ')}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <PostForm action={`${DATA}/imports`} csrf={props.csrf} label={t('data.importLabel')}>
          {props.error && (
            <p class="error" role="alert">
              {props.error}
            </p>
          )}
          <div class="field">
            <label for="import-kind">{t('data.fileHolds')}</label>
            <select id="import-kind" name="kind">
              {IMPORT_KINDS.map((kind) => (
                <option key={kind} value={kind} selected={kind === props.kind}>
                  {t(KIND_LABELS[kind])}
                </option>
              ))}
            </select>
          </div>
          <div class="field" hidden>
            <label for="import-file">{t('data.file')}</label>
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              data-csv-into="import-csv"
              data-csv-name="import-name"
            />
          </div>
          <input type="hidden" id="import-name" name="file_name" value="" />
          <div class="field">
            <label for="import-csv">{t('data.fileText')}</label>
            <textarea id="import-csv" name="csv" rows={8} spellcheck={false} />
          </div>
          <button type="submit">{t('data.preview')}</button>
        </PostForm>
      </div>
    </>
  );
}

/** One upload: its preview before it runs, what it did after. */
export function ImportPage(props: {
  id: string;
  fileName: string;
  report: ImportReport;
  csrf: string;
  text: PanelText;
}) {
  const { report } = props;
  const { t } = props.text;
  const toApply = report.counts.create + report.counts.update;
  const title = report.ran ? t('data.done') : t('data.previewTitle');
  const kind = t(KIND_LABELS[report.kind]);
  return (
    <>
      <p class="crumbs">
        <a href={DATA}>{t('nav.importExport')}</a> /
      </p>
      <h1>
        {props.fileName
          ? t('data.headingFrom', { title, kind, file: props.fileName })
          : t('data.heading', { title, kind })}
      </h1>
      {report.fileError ? (
        <p class="error" role="alert">
          {report.fileError}
        </p>
      ) : (
        <div class="card">
          <p role="status" id="import-counts">
            {t(report.ran ? 'data.countsRan' : 'data.countsPreview', { ...report.counts })}
          </p>
          {report.ignoredColumns.length > 0 && (
            <p class="muted">{t('data.notRead', { columns: report.ignoredColumns.join(', ') })}</p>
          )}
          {!report.ran && report.kind === 'bookings' && <p class="muted">{t('data.bookingsChecked')}</p>}
          {!report.ran && toApply > 0 && (
            <div class="row">
              <PostForm
                action={`${DATA}/imports/${props.id}/run`}
                csrf={props.csrf}
                class="inline"
                label={t('data.run')}
              >
                <button type="submit">{t('data.importRows', { n: toApply })}</button>
              </PostForm>
              <a class="button secondary" href={DATA}>
                {t('team.cancel')}
              </a>
            </div>
          )}
        </div>
      )}
      {report.rows.length > 0 && (
        <div class="table-wrap">
          <table class="stack" aria-label={t('data.rowsTable')}>
            <thead>
              <tr>
                <th scope="col">{t('data.line')}</th>
                <th scope="col">{t('data.row')}</th>
                <th scope="col">{report.ran ? t('data.doneCol') : t('data.willBe')}</th>
                <th scope="col">{t('data.whyNot')}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => (
                <tr key={row.line} class={row.action === 'error' ? 'row-error' : undefined}>
                  <td data-label={t('data.line')}>{row.line}</td>
                  <td data-label={t('data.row')}>{row.label}</td>
                  <td data-label={report.ran ? t('data.doneCol') : t('data.willBe')}>
                    {t(ACTION_LABELS[row.action][report.ran ? 1 : 0])}
                  </td>
                  {Object.keys(row.errors).length > 0 ? (
                    <td data-label={t('data.whyNot')}>
                      {Object.entries(row.errors).map(([column, messages]) => (
                        <div key={column}>
                          <code>{column}</code>: {messages.join(' ')}
                        </div>
                      ))}
                    </td>
                  ) : (
                    <td class="muted">—</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
