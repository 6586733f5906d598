import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import { toCsv } from '../../platform/csv.js';
import { currencyDigits, formatMoney } from '../../platform/money.js';
import type { Grouping } from '../report-period.rules.js';
import type { Report, ReportRow, ReportTable, RowLabel, Unit } from '../reports.service.js';

/** How a report's labels and figures read on the page, in the reader's language and locale. */
export interface ReportWords {
  text: PanelText;
  currency: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${JSON.stringify(options)}`;
  let found = numberFormats.get(id);
  if (!found) {
    found = new Intl.NumberFormat(locale, options);
    numberFormats.set(id, found);
  }
  return found;
}

export function formatValue(value: number | null, unit: Unit, words: ReportWords): string {
  if (value === null) return '–';
  const { locale } = words.text;
  switch (unit) {
    case 'money':
      return formatMoney(value, words.currency, locale);
    case 'count':
      return numberFormat(locale, {}).format(value);
    case 'permille':
      return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value / 1000);
    case 'minutes':
      return numberFormat(locale, { style: 'unit', unit: 'hour', maximumFractionDigits: 1 }).format(
        value / 60,
      );
    case 'hours':
      return numberFormat(locale, { style: 'unit', unit: 'hour', maximumFractionDigits: 1 }).format(value);
  }
}

/** A value on the chart's axis: whole units, money without cents, large numbers short ("€12K"). */
export function formatAxis(value: number, unit: Unit, words: ReportWords): string {
  const { locale } = words.text;
  if (unit === 'money')
    return numberFormat(locale, {
      style: 'currency',
      currency: words.currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    }).format(value / 10 ** currencyDigits(words.currency));
  if (unit === 'permille')
    return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(value / 1000);
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${locale}|${JSON.stringify(options)}`;
  let found = dateFormats.get(id);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    dateFormats.set(id, found);
  }
  return found;
}

/** A bucket's name: "Mon 3 Mar", "Week of 3 Mar", "March 2026". */
export function bucketName(date: string, grouping: Grouping, text: PanelText): string {
  const at = new Date(`${date}T12:00:00Z`);
  if (grouping === 'month') return dateFormat(text.locale, { month: 'long', year: 'numeric' }).format(at);
  const day = dateFormat(text.locale, { day: 'numeric', month: 'short' }).format(at);
  if (grouping === 'week') return text.t('reports.weekOf', { date: day });
  return `${dateFormat(text.locale, { weekday: 'short' }).format(at)} ${day}`;
}

export function labelOf(label: RowLabel, grouping: Grouping, text: PanelText): string {
  if ('date' in label) return bucketName(label.date, grouping, text);
  if ('name' in label) return label.name;
  return text.t(`reports.word.${label.word}` as PanelKey);
}

export function columnName(id: string, text: PanelText): string {
  return text.t(`reports.column.${id}` as PanelKey);
}

export function tableName(id: string, text: PanelText): string {
  return text.t(`reports.table.${id}` as PanelKey);
}

/**
 * One table of a report as CSV, for a spreadsheet: dates as YYYY-MM-DD (the bucket's first day),
 * money in the currency's major unit with a point ("12.50"), rates in percent, minutes as whole
 * minutes, and a total row. Headers and words in the reader's language.
 */
export function reportCsv(report: Report, table: ReportTable, words: ReportWords): string {
  const { text } = words;
  const header = [
    tableName(table.id, text),
    ...table.columns.map((column) => {
      const name = columnName(column.id, text);
      if (column.unit === 'money') return `${name} (${words.currency})`;
      if (column.unit === 'permille') return `${name} (%)`;
      if (column.unit === 'minutes') return `${name} (min)`;
      if (column.unit === 'hours') return `${name} (h)`;
      return name;
    }),
  ];
  const cell = (value: number | null, unit: Unit) => {
    if (value === null) return '';
    if (unit === 'money')
      return (value / 10 ** currencyDigits(words.currency)).toFixed(currencyDigits(words.currency));
    if (unit === 'permille') return (value / 10).toFixed(1);
    return String(value);
  };
  const line = (label: string, row: ReportRow['values']) => [
    label,
    ...row.map((value, i) => cell(value, table.columns[i]!.unit)),
  ];
  const rows = table.rows.map((row) =>
    line('date' in row.label ? row.label.date : labelOf(row.label, report.period.grouping, text), row.values),
  );
  if (table.total) rows.push(line(text.t('reports.total'), table.total));
  return toCsv(header, rows);
}
