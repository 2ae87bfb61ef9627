/**
 * A small RFC 4180 CSV reader: comma-separated fields; a field in double quotes may hold commas,
 * line breaks and doubled quotes (""); records end with CRLF, LF or CR. A leading byte-order mark
 * is ignored, blank lines are skipped (but still counted, so row numbers match the file's lines when
 * no field spans lines), and a final line break does not start an empty record. A quote inside an
 * unquoted field is kept as a literal character, as spreadsheets and Python's csv module do.
 */
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

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

export function parseCsv(text: string, opts: { maxRecords?: number } = {}): CsvResult {
  const max = opts.maxRecords ?? Number.POSITIVE_INFINITY;
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let row = 1;
  let fields: string[] = [];
  if (i >= n) return { records, overflow: false };

  for (;;) {
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      let start = i + 1;
      value = '';
      for (;;) {
        const q = text.indexOf('"', start);
        if (q === -1) throw new CsvSyntaxError(row, 'a quoted field is not closed');
        value += text.slice(start, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += '"';
          start = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      const c = text.charCodeAt(i);
      if (i < n && c !== COMMA && c !== CR && c !== LF) throw new CsvSyntaxError(row, 'unexpected character after a closing quote');
    } else {
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === COMMA || c === CR || c === LF) break;
        j++;
      }
      value = text.slice(i, j);
      i = j;
    }
    fields.push(value);

    if (i < n && text.charCodeAt(i) === COMMA) {
      i++;
      continue;
    }
    // End of record: CRLF, LF, CR or the end of the text.
    if (i < n && text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF) i += 2;
    else i += 1;
    const blank = fields.length === 1 && fields[0] === '';
    if (!blank) {
      if (records.length >= max) return { records, overflow: true };
      records.push({ row, fields });
    }
    fields = [];
    row += 1;
    if (i >= n) return { records, overflow: false };
  }
}

/** Writes one CSV record (quoting only where needed); the inverse of parseCsv for a single line. */
export function formatCsvRecord(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) || f.startsWith('\uFEFF') ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}
