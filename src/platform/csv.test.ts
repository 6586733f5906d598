import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, detectDelimiter, parseCsv, parseRecords, toCsv } from './csv.js';

describe('CSV', () => {
  it.each([
    ['phone,name\n', ','],
    ['phone;name;email\r\n', ';'],
    ['phone\tname\n', '\t'],
    ['"a;b",c\n', ','],
    ['single\n', ','],
  ] as const)('detects the delimiter of %j as %j', (text, expected) => {
    expect(detectDelimiter(text)).toBe(expected);
  });

  it('reads quotes, doubled quotes, line breaks inside quotes, CRLF, a BOM and a blank last line', () => {
    const text = '\ufeffname;note\r\n"Müller; Anna";"said ""hi""\nthen left"\r\nBob;\r\n\r\n';
    expect(parseCsv(text)).toEqual({
      header: ['name', 'note'],
      delimiter: ';',
      rows: [
        { line: 2, values: { name: 'Müller; Anna', note: 'said "hi"\nthen left' } },
        { line: 4, values: { name: 'Bob', note: '' } },
      ],
    });
  });

  it('refuses an unclosed quote and a row longer than the header, naming the line', () => {
    expect(() => parseCsv('a,b\n1,"open\n')).toThrow(CsvError);
    try {
      parseCsv('a,b\n1,2\n1,2,3\n');
    } catch (error) {
      expect(error).toBeInstanceOf(CsvError);
      expect((error as CsvError).line).toBe(3);
    }
    // Trailing empty cells (a spreadsheet's stray column) are not an error.
    expect(parseCsv('a,b\n1,2,,\n').rows[0]!.values).toEqual({ a: '1', b: '2' });
  });

  it('writes what it reads back, whatever the text', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Ä', ',', ';', '"', '\n', '\r\n', ' ', '1') });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 5 }), (rows) => {
        // Values are trimmed on reading, and a formula-looking start gets its guard: compare alike.
        const clean = rows.map(([a, b]) => [
          a.trim().replace(/^[=+\-@]+/, ''),
          b.trim().replace(/^[=+\-@]+/, ''),
        ]);
        const back = parseRecords(toCsv(['x', 'y'], clean), ',').slice(1);
        expect(back.map((record) => record.fields.map((field) => field.trim()))).toEqual(clean);
      }),
    );
  });

  it('guards formula starts but leaves phone numbers and negative amounts', () => {
    expect(toCsv(['v'], [['=HYPERLINK("x")'], ['@cmd'], ['+4915112345678'], ['-250']])).toBe(
      'v\r\n"\'=HYPERLINK(""x"")"\r\n\'@cmd\r\n+4915112345678\r\n-250\r\n',
    );
  });
});
