import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, formatCsvRecord, parseCsv } from './locations.csv.js';

const fields = (text: string) => parseCsv(text).records.map((r) => r.fields);

describe('parseCsv', () => {
  it('reads plain records with LF, CRLF or CR line ends, with or without a final line break', () => {
    for (const text of ['a,b,c\n1,2,3', 'a,b,c\r\n1,2,3\r\n', 'a,b,c\r1,2,3\r', 'a,b,c\n1,2,3\n']) {
      expect(fields(text), JSON.stringify(text)).toEqual([
        ['a', 'b', 'c'],
        ['1', '2', '3'],
      ]);
    }
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks', () => {
    const text = 'name,address\r\n"Love\'s ""Travel"" Stop, #512","1 Main St,\r\nSuite ""B""\nDallas"\r\n"",plain\r\n';
    expect(fields(text)).toEqual([
      ['name', 'address'],
      ['Love\'s "Travel" Stop, #512', '1 Main St,\r\nSuite "B"\nDallas'],
      ['', 'plain'],
    ]);
  });

  it('keeps empty fields, including trailing ones, and skips blank lines while counting them as rows', () => {
    const { records } = parseCsv('\uFEFFa,b,c\n\n1,,\n,,\r\n\r\nx,"",z');
    expect(records).toEqual([
      { row: 1, fields: ['a', 'b', 'c'] },
      { row: 3, fields: ['1', '', ''] },
      { row: 4, fields: ['', '', ''] },
      { row: 6, fields: ['x', '', 'z'] },
    ]);
    expect(parseCsv('').records).toEqual([]);
    expect(parseCsv('\uFEFF').records).toEqual([]);
    expect(parseCsv('\n\r\n').records).toEqual([]);
  });

  it('keeps a quote inside an unquoted field literally', () => {
    expect(fields('12" pipe,a"b"c')).toEqual([['12" pipe', 'a"b"c']]);
  });

  it('reports an unterminated quote and text after a closing quote, with the row', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow(new CsvSyntaxError(2, 'a quoted field is not closed'));
    const err = (() => {
      try {
        parseCsv('a,b\n\n1,"x"y');
      } catch (e) {
        return e as CsvSyntaxError;
      }
    })();
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect(err).toMatchObject({ row: 3, message: 'unexpected character after a closing quote' });
  });

  it('stops after maxRecords non-blank records and says so', () => {
    expect(parseCsv('h\n1\n2\n\n', { maxRecords: 3 })).toEqual({ records: [{ row: 1, fields: ['h'] }, { row: 2, fields: ['1'] }, { row: 3, fields: ['2'] }], overflow: false });
    expect(parseCsv('h\n1\n2\n3\n', { maxRecords: 3 }).overflow).toBe(true);
  });

  it('reads back whatever formatCsvRecord writes (property)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r', 'é', '😀', '\t'), maxLength: 12 });
    const record = fc.array(field, { minLength: 1, maxLength: 6 }).filter((r) => !(r.length === 1 && r[0] === ''));
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (records, eol, finalEol) => {
        const text = records.map(formatCsvRecord).join(eol) + (finalEol && records.length > 0 ? eol : '');
        expect(fields(text)).toEqual(records);
      }),
      { numRuns: 500 },
    );
  });
});
