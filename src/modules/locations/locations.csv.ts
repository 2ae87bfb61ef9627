/**
 * Reading CSV (RFC 4180, by csv-parse): comma-separated fields; a field in double quotes may hold
 * commas, line breaks and doubled quotes (""); records end with CRLF, LF or CR. A leading byte-order
 * mark is ignored, blank lines are skipped (but still counted, so row numbers match the file's lines
 * when no field spans lines), and a final line break does not start an empty record. A quote inside an
 * unquoted field is kept as a literal character, as spreadsheets and Python's csv module do.
 */
import { CsvError, parse, type InfoRecord } from 'csv-parse/sync';

export interface CsvRecord {
  /** 1-based record number in the file: the header is row 1. */
  row: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

export interface CsvResult {
  records: CsvRecord[];
  /** True when reading stopped because more than maxRecords non-blank records were found. */
  overflow: boolean;
}

/*
 * csv-parse's `relax_quotes`, needed to keep a quote inside an unquoted field literally, also lets text
 * follow a closing quote (`"x"y`), which is a broken file, not data: so the raw text of each record that
 * has a quote is checked against RFC 4180's grammar, each field either quoted (its closing quote followed
 * by a comma or the end of the record) or unquoted (not starting with a quote).
 */
const FIELD = '(?:"(?:[^"]|"")*"|(?!")[^,\\r\\n]*)';
const WELL_FORMED_RECORD = new RegExp(`^${FIELD}(?:,${FIELD})*(?:\\r\\n|\\n|\\r)?$`);
/** The same for a record cut short inside a quoted field (the file ends before the quote is closed). */
const WELL_FORMED_UNTIL_OPEN_QUOTE = new RegExp(`^(?:${FIELD},)*"(?:[^"]|"")*$`);
const AFTER_CLOSING_QUOTE = 'unexpected character after a closing quote';

/** Thrown from the record callback to stop reading once more than maxRecords records were found. */
const OVERFLOW = Symbol('overflow');

/** The records of a CSV text, blank lines left out; stops after `maxRecords` of them (then `overflow`). */
export function parseCsv(text: string, opts: { maxRecords?: number } = {}): CsvResult {
  const max = opts.maxRecords ?? Number.POSITIVE_INFINITY;
  const records: CsvRecord[] = [];
  /** Called once per record, blank ones included: csv-parse's record count is the row number. */
  const onRecord = ({ record: fields, raw }: { record: string[]; raw: string }, info: InfoRecord): null => {
    const row = info.records;
    if (raw.includes('"') && !WELL_FORMED_RECORD.test(raw)) throw new CsvSyntaxError(row, AFTER_CLOSING_QUOTE);
    if (fields.length === 1 && fields[0] === '') return null; // a blank line
    if (records.length >= max) throw OVERFLOW;
    records.push({ row, fields });
    return null;
  };
  try {
    parse(text, {
      bom: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      // The reader's caller judges the field counts (with its own messages).
      relax_column_count: true,
      // Blank lines come through as [''] so that they are counted; onRecord drops them.
      skip_empty_lines: false,
      raw: true,
      on_record: onRecord as (record: unknown, info: InfoRecord) => null,
    });
  } catch (err) {
    if (err === OVERFLOW) return { records, overflow: true };
    if (err instanceof CsvError) throw syntaxError(err);
    throw err;
  }
  return { records, overflow: false };
}

/**
 * csv-parse's error as the reader's: the row is the record being read when it failed. A quote left open
 * at the end of the file may follow an earlier closing quote with text after it: that one is reported,
 * as it came first.
 */
function syntaxError(err: CsvError): CsvSyntaxError {
  const row = (typeof err.records === 'number' ? err.records : 0) + 1;
  if (err.code !== 'CSV_QUOTE_NOT_CLOSED') return new CsvSyntaxError(row, err.message);
  const raw = typeof err.raw === 'string' ? err.raw : '';
  return new CsvSyntaxError(row, WELL_FORMED_UNTIL_OPEN_QUOTE.test(raw) ? 'a quoted field is not closed' : AFTER_CLOSING_QUOTE);
}

/** Writes one CSV record (quoting only where needed); the inverse of parseCsv for a single line. */
export function formatCsvRecord(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) || f.startsWith('\uFEFF') ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}
