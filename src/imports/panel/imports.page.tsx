import { PostForm } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { IMPORT_COLUMNS, IMPORT_KINDS, type ImportKind } from '../import-rows.rules.js';
import type { ImportReport, RowAction } from '../imports.service.js';

export const DATA = `${PANEL_PREFIX}/settings/data`;

const KIND_LABELS: Record<ImportKind, string> = {
  customers: 'Customers',
  services: 'Services',
  staffers: 'Staffers',
  bookings: 'Future bookings',
};

/** What a row will do (preview) and what it did (after the run). */
const ACTION_LABELS: Record<RowAction, [string, string]> = {
  create: ['New', 'Created'],
  update: ['Update', 'Updated'],
  unchanged: ['Already there', 'Already there'],
  error: ['Error', 'Not imported'],
};

/** Settings → Import and export: the two exports, and the import form. */
export function DataPage(props: { csrf: string; error?: string | undefined; kind?: ImportKind }) {
  return (
    <>
      <h1>Import and export</h1>
      <h2>Export</h2>
      <div class="card">
        <p>
          <a href={`${DATA}/customers.csv`} download>
            Customers (CSV)
          </a>
        </p>
        <form method="get" action={`${DATA}/bookings.csv`} aria-label="Export bookings">
          <div class="row">
            <div class="field">
              <label for="export-from">Bookings from</label>
              <input id="export-from" name="from" type="date" />
            </div>
            <div class="field">
              <label for="export-to">to</label>
              <input id="export-to" name="to" type="date" />
            </div>
          </div>
          <p class="muted">
            Dates are UTC days; leave them empty for every booking. Times in the file are each location’s.
          </p>
          <button type="submit" class="secondary">
            Bookings (CSV)
          </button>
        </form>
      </div>
      <h2>Import</h2>
      <div class="card">
        <p>
          A CSV file from a spreadsheet (comma or semicolon separated) with a header row. You see what each
          row will do before anything changes; rows that match what you have are left alone, so a file can be
          imported again.
        </p>
        <table class="stack" aria-label="Columns of each import">
          <thead>
            <tr>
              <th scope="col">Import</th>
              <th scope="col">Required columns</th>
              <th scope="col">Optional columns</th>
            </tr>
          </thead>
          <tbody>
            {IMPORT_KINDS.map((kind) => (
              <tr key={kind}>
                <td data-label="Import">{KIND_LABELS[kind]}</td>
                <td data-label="Required">
                  <code>{IMPORT_COLUMNS[kind].required.join(', ')}</code>
                </td>
                <td data-label="Optional">
                  <code>{IMPORT_COLUMNS[kind].optional.join(', ')}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <PostForm action={`${DATA}/imports`} csrf={props.csrf} label="Import a CSV file">
          {props.error && (
            <p class="error" role="alert">
              {props.error}
            </p>
          )}
          <div class="field">
            <label for="import-kind">What the file holds</label>
            <select id="import-kind" name="kind">
              {IMPORT_KINDS.map((kind) => (
                <option key={kind} value={kind} selected={kind === props.kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          </div>
          <div class="field" hidden>
            <label for="import-file">File</label>
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
            <label for="import-csv">The file’s text (or paste it here)</label>
            <textarea id="import-csv" name="csv" rows={8} spellcheck={false} />
          </div>
          <button type="submit">Preview the import</button>
        </PostForm>
      </div>
    </>
  );
}

/** One upload: its preview before it runs, what it did after. */
export function ImportPage(props: { id: string; fileName: string; report: ImportReport; csrf: string }) {
  const { report } = props;
  const toApply = report.counts.create + report.counts.update;
  const title = report.ran ? 'Import done' : 'Import preview';
  return (
    <>
      <p class="crumbs">
        <a href={DATA}>Import and export</a> /
      </p>
      <h1>
        {title}: {KIND_LABELS[report.kind]}
        {props.fileName ? ` from ${props.fileName}` : ''}
      </h1>
      {report.fileError ? (
        <p class="error" role="alert">
          {report.fileError}
        </p>
      ) : (
        <div class="card">
          <p role="status" id="import-counts">
            {report.ran
              ? `${report.counts.create} created, ${report.counts.update} updated, ${report.counts.unchanged} already there, ${report.counts.error} with errors.`
              : `${report.counts.create} to create, ${report.counts.update} to update, ${report.counts.unchanged} already there, ${report.counts.error} with errors.`}
          </p>
          {report.ignoredColumns.length > 0 && (
            <p class="muted">Columns not read: {report.ignoredColumns.join(', ')}.</p>
          )}
          {!report.ran && report.kind === 'bookings' && (
            <p class="muted">
              Each booking’s time is checked when it is made: a time taken meanwhile becomes that row’s error.
            </p>
          )}
          {!report.ran && toApply > 0 && (
            <div class="row">
              <PostForm
                action={`${DATA}/imports/${props.id}/run`}
                csrf={props.csrf}
                class="inline"
                label="Run the import"
              >
                <button type="submit">
                  Import {toApply} {toApply === 1 ? 'row' : 'rows'}
                </button>
              </PostForm>
              <a class="button secondary" href={DATA}>
                Cancel
              </a>
            </div>
          )}
        </div>
      )}
      {report.rows.length > 0 && (
        <div class="table-wrap">
          <table class="stack" aria-label="Rows of the file">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Row</th>
                <th scope="col">{report.ran ? 'Done' : 'Will be'}</th>
                <th scope="col">Why not</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => (
                <tr key={row.line} class={row.action === 'error' ? 'row-error' : undefined}>
                  <td data-label="Line">{row.line}</td>
                  <td data-label="Row">{row.label}</td>
                  <td data-label={report.ran ? 'Done' : 'Will be'}>
                    {ACTION_LABELS[row.action][report.ran ? 1 : 0]}
                  </td>
                  {Object.keys(row.errors).length > 0 ? (
                    <td data-label="Why not">
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
