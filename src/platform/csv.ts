/**
 * CSV as spreadsheets write and read it (RFC 4180): fields quoted with `"` when they hold the
 * delimiter, a quote or a line break, quotes doubled inside. Written here rather than taken from a
 * package because what we need is small and exact: reading one uploaded file whole (at most a few
 * MB), detecting the delimiter Excel used (`;` where the decimal mark is a comma, as in most of
 * Europe; `,` or a tab elsewhere), and writing our exports.
 */

export type CsvDelimiter = ',' | ';' | '\t';

export interface ParsedCsv {
  /** The header row's names as written (trimmed). */
  header: string[];
  /** Each data row as header name → value, with its line number in the file (the header is line 1). */
  rows: { line: number; values: Record<string, string> }[];
  delimiter: CsvDelimiter;
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The delimiter of the header line: the one of `,`, `;`, tab found most outside quotes. */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as CsvDelimiter] += 1;
  }
  const best = (Object.entries(counts) as [CsvDelimiter, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] === 0 ? ',' : best[0];
}

/** Every record of the text as arrays of fields, each with the line it starts on. */
export function parseRecords(text: string, delimiter: CsvDelimiter): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let atFieldStart = true;
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record (spreadsheets leave one at the end).
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    atFieldStart = true;
  };
  for (let i = 0; i < input.length; i += 1) {
    const char = input[i]!;
    if (quoted) {
      if (char === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else {
        if (char === '\n') line += 1;
        field += char;
      }
      continue;
    }
    if (char === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (char === delimiter) {
      fields.push(field);
      field = '';
      atFieldStart = true;
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && input[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      field += char;
      atFieldStart = false;
    }
  }
  if (quoted) throw new CsvError('A quoted field is not closed before the end of the file.', recordLine);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** A CSV file with a header row, as rows keyed by the header's names. */
export function parseCsv(text: string): ParsedCsv {
  const delimiter = detectDelimiter(text);
  const [head, ...records] = parseRecords(text, delimiter);
  if (!head) throw new CsvError('The file is empty: the first line must name the columns.', 1);
  const header = head.fields.map((name) => name.trim());
  const rows = records.map((record) => {
    if (
      record.fields.length > header.length &&
      record.fields.slice(header.length).some((f) => f.trim() !== '')
    ) {
      throw new CsvError(
        `Line ${record.line} has ${record.fields.length} fields but the header names ${header.length}.`,
        record.line,
      );
    }
    const values: Record<string, string> = {};
    header.forEach((name, index) => {
      values[name] = (record.fields[index] ?? '').trim();
    });
    return { line: record.line, values };
  });
  return { header, rows, delimiter };
}

/**
 * One CSV text from a header and rows, lines ending in CRLF as RFC 4180 says, and a field that
 * starts with `=`, `+`, `-` or `@` prefixed with `'`: a spreadsheet would run it as a formula
 * (a customer who types `=HYPERLINK(...)` as their name must not run code on the owner's machine).
 */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (value: unknown) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@]/.test(text) && !/^[+-]?\d/.test(text)) text = `'${text}`;
    return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
