import type { PanelKey } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { PeriodProblem, ReportPeriod } from '../report-period.rules.js';
import { REPORT_KINDS, type Report, type ReportTable } from '../reports.service.js';
import { BarChart } from './bar-chart.js';
import {
  columnName,
  formatAxis,
  formatValue,
  labelOf,
  type ReportWords,
  tableName,
} from './report-format.js';

export const REPORTS = `${PANEL_PREFIX}/reports`;

/** The chart's colours and the tabs; the panel's own stylesheet holds the rest. */
export const REPORTS_CSS =
  '.tabs{display:flex;flex-wrap:wrap;gap:.25rem .75rem;margin:0 0 1rem;padding:0;list-style:none}' +
  '.tabs a[aria-current=page]{font-weight:600;text-decoration:none;color:var(--ink)}' +
  '.chart{margin:0 0 1.25rem}' +
  '.chart-plot{display:grid;grid-template-columns:auto 1fr;grid-template-rows:11rem auto;column-gap:.5rem}' +
  '.chart-axis{display:flex;flex-direction:column;justify-content:space-between;text-align:end;font-size:.8rem;color:var(--muted);line-height:1}' +
  '.chart-plot svg{width:100%;height:100%;display:block;border-bottom:1px solid var(--muted)}' +
  '.chart-x{grid-column:2;display:flex;justify-content:space-between;gap:.5rem;margin-top:.25rem;font-size:.8rem;color:var(--muted);white-space:nowrap;overflow:hidden;min-width:0}' +
  '@media (max-width:40rem){.chart-x span:nth-child(2n){display:none}}' +
  '.chart-grid{stroke:var(--line)}.chart-a{fill:var(--accent);background:var(--accent)}.chart-b{fill:#c76b12;background:#c76b12}' +
  '.chart-bars{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}' +
  '.chart-bars li{display:grid;grid-template-columns:1fr auto;gap:.1rem .5rem}' +
  '.chart-bars svg{grid-column:1/-1;width:100%;height:.65rem;display:block;background:var(--bg)}' +
  '.chart-bar-value{font-variant-numeric:tabular-nums;color:var(--muted)}' +
  '.chart-legend{display:flex;gap:1rem;font-size:.9rem;margin:.5rem 0 0}.chart-legend i{display:inline-block;width:.8em;height:.8em;border-radius:2px}' +
  'tfoot th,tfoot td{font-weight:600;border-top:2px solid var(--line)}';

export interface ReportsView {
  report: Report;
  problems: PeriodProblem[];
  locations: { id: string; name: string }[];
  words: ReportWords;
}

/** The query of a period, for links that keep it (tabs, CSV). */
export function periodQuery(period: ReportPeriod): string {
  const params = new URLSearchParams({ from: period.from, to: period.to, group: period.grouping });
  if (period.locationId) params.set('location', period.locationId);
  return `?${params}`;
}

/** Reports (owners, admins): one report at a time, its period and location, its chart and tables. */
export function ReportsPage({ report, problems, locations, words }: ReportsView) {
  const { t } = words.text;
  const { period } = report;
  const query = periodQuery(period);
  return (
    <>
      <h1>{t('reports.title')}</h1>
      <nav aria-label={t('reports.title')}>
        <ul class="tabs">
          {REPORT_KINDS.map((kind) => (
            <li>
              <a href={`${REPORTS}/${kind}${query}`} aria-current={kind === report.kind ? 'page' : undefined}>
                {t(`reports.kind.${kind}` as PanelKey)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form method="get" action={`${REPORTS}/${report.kind}`} class="card" aria-label={t('reports.filter')}>
        <div class="row fields">
          <div class="field">
            <label for="report-from">{t('reports.from')}</label>
            <input id="report-from" name="from" type="date" value={period.from} required />
          </div>
          <div class="field">
            <label for="report-to">{t('reports.to')}</label>
            <input id="report-to" name="to" type="date" value={period.to} required />
          </div>
          <div class="field">
            <label for="report-group">{t('reports.group')}</label>
            <select id="report-group" name="group">
              {(['day', 'week', 'month'] as const).map((grouping) => (
                <option value={grouping} selected={period.grouping === grouping}>
                  {t(`reports.group.${grouping}`)}
                </option>
              ))}
            </select>
          </div>
          {locations.length > 1 && (
            <div class="field">
              <label for="report-location">{t('reports.location')}</label>
              <select id="report-location" name="location">
                <option value="">{t('reports.allLocations')}</option>
                {locations.map((location) => (
                  <option value={location.id} selected={period.locationId === location.id}>
                    {location.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        <p>
          <button type="submit">{t('reports.show')}</button>
        </p>
      </form>
      {problems.length > 0 && (
        <p class="error" role="alert">
          {problems.map((problem) => t(`reports.problem.${problem === 'to' ? 'from' : problem}`)).join(' ')}
        </p>
      )}
      <p class="lead">{t(`reports.about.${report.kind}` as PanelKey)}</p>
      {report.tables.map((table) => (
        <ReportSection report={report} table={table} words={words} query={query} />
      ))}
    </>
  );
}

function ReportSection({
  report,
  table,
  words,
  query,
}: {
  report: Report;
  table: ReportTable;
  words: ReportWords;
  query: string;
}) {
  const { text } = words;
  const { grouping } = report.period;
  const charted = report.chart.table === table.id;
  const id = `table-${table.id}`;
  const empty = table.rows.length === 0 || table.total?.every((v) => !v) === true;
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{tableName(table.id, text)}</h2>
      {empty ? (
        <p class="muted">{text.t('reports.empty')}</p>
      ) : (
        <>
          {charted && (
            <BarChart
              shape={table.rows[0] && 'date' in table.rows[0].label ? 'columns' : 'bars'}
              labels={table.rows.map((row) => labelOf(row.label, grouping, text))}
              series={report.chart.columns.map((i) => ({
                name: columnName(table.columns[i]!.id, text),
                values: table.rows.map((row) => row.values[i] ?? 0),
              }))}
              format={(value) => formatValue(value, table.columns[report.chart.columns[0]!]!.unit, words)}
              axis={(value) => formatAxis(value, table.columns[report.chart.columns[0]!]!.unit, words)}
            />
          )}
          <div class="table-wrap">
            <table class="figures">
              <thead>
                <tr>
                  <th scope="col">{text.t(`reports.by.${table.id}` as PanelKey)}</th>
                  {table.columns.map((column) => (
                    <th scope="col" class="num">
                      {columnName(column.id, text)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr>
                    <th scope="row">{labelOf(row.label, grouping, text)}</th>
                    {row.values.map((value, i) => (
                      <td class="num">{formatValue(value, table.columns[i]!.unit, words)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
              {table.total && (
                <tfoot>
                  <tr>
                    <th scope="row">{text.t('reports.total')}</th>
                    {table.total.map((value, i) => (
                      <td class="num">{formatValue(value, table.columns[i]!.unit, words)}</td>
                    ))}
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        </>
      )}
      <p>
        <a href={`${REPORTS}/${report.kind}/${table.id}.csv${query}`} download>
          {text.t('reports.csv')}
        </a>
      </p>
    </section>
  );
}
