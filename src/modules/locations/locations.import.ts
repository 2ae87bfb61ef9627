import { parseCsv, CsvSyntaxError } from './locations.csv.js';
import type { LocationFields, LocationType } from './locations.repository.js';
import { FIELD_LIMITS, LOCATION_TYPES, MAX_FUEL_DISCOUNT } from './locations.schemas.js';

/** One problem in an import: the CSV row (the header is row 1), the column, and what is wrong. */
export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

export const IMPORT_COLUMNS = ['name', 'type', 'address', 'latitude', 'longitude', 'parking', 'showers', 'diesel', 'fuelDiscountPerGallon', 'externalId'] as const;
type Column = (typeof IMPORT_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['name', 'type', 'latitude', 'longitude'];
const BY_LOWER = new Map<string, Column>(IMPORT_COLUMNS.map((c) => [c.toLowerCase(), c]));

export interface ImportRow {
  row: number;
  fields: LocationFields;
}

export type ReadResult =
  | { kind: 'ok'; rows: ImportRow[] }
  | { kind: 'invalid'; errors: ImportRowError[]; invalidRows: number }
  | { kind: 'too-many-rows' };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const TRUE = new Set(['true', 'yes', 'y', '1', 't']);
const FALSE = new Set(['false', 'no', 'n', '0', 'f', '']);
const length = (s: string) => [...s].length; // code points, as the JSON schema's maxLength counts

/**
 * Reads and validates the whole file: either every data row as location fields, or every problem
 * found (header problems stop the reading of rows). Nothing here touches the database.
 */
export function readLocationsCsv(text: string, maxRows: number): ReadResult {
  let records;
  try {
    const parsed = parseCsv(text, { maxRecords: maxRows + 1 });
    if (parsed.overflow) return { kind: 'too-many-rows' };
    records = parsed.records;
  } catch (err) {
    if (err instanceof CsvSyntaxError) return { kind: 'invalid', errors: [{ row: err.row, field: 'csv', message: err.message }], invalidRows: 1 };
    throw err;
  }

  const header = records[0];
  if (!header) return { kind: 'invalid', errors: [{ row: 1, field: 'header', message: `a header row is required: ${IMPORT_COLUMNS.join(',')}` }], invalidRows: 1 };
  const headerErrors: ImportRowError[] = [];
  const columns: Column[] = [];
  const seen = new Set<Column>();
  header.fields.forEach((raw, index) => {
    const name = raw.trim();
    const column = BY_LOWER.get(name.toLowerCase());
    if (!column) {
      headerErrors.push({ row: header.row, field: name.slice(0, 100) || `column ${index + 1}`, message: `is not a known column (expected: ${IMPORT_COLUMNS.join(', ')})` });
      return;
    }
    if (seen.has(column)) headerErrors.push({ row: header.row, field: column, message: 'appears more than once' });
    seen.add(column);
    columns[index] = column;
  });
  for (const column of REQUIRED) {
    if (!seen.has(column)) headerErrors.push({ row: header.row, field: column, message: 'is a required column' });
  }
  if (headerErrors.length > 0) return { kind: 'invalid', errors: headerErrors, invalidRows: 1 };

  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  let invalidRows = 0;
  const externalIdRows = new Map<string, number>();
  for (const record of records.slice(1)) {
    const rowErrors: ImportRowError[] = [];
    const fail = (field: string, message: string) => rowErrors.push({ row: record.row, field, message });
    if (record.fields.length !== columns.length) {
      fail('row', `has ${record.fields.length} fields; the header has ${columns.length}`);
    } else {
      const value = (c: Column): string => {
        const i = columns.indexOf(c);
        return i === -1 ? '' : record.fields[i]!.trim();
      };
      const text = (c: Column, max: number, required: boolean): string | null => {
        const v = value(c);
        if (v === '') {
          if (required) fail(c, 'is required');
          return null;
        }
        if (length(v) > max) fail(c, `must be at most ${max} characters`);
        return v;
      };
      const number = (c: Column, min: number, max: number, required: boolean): number | null => {
        const v = value(c);
        if (v === '') {
          if (required) fail(c, 'is required');
          return null;
        }
        if (!NUMBER.test(v)) {
          fail(c, 'must be a number');
          return null;
        }
        const n = Number(v);
        if (n < min || n > max) fail(c, `must be between ${min} and ${max}`);
        return n;
      };
      const bool = (c: Column): boolean => {
        const v = value(c).toLowerCase();
        if (TRUE.has(v)) return true;
        if (!FALSE.has(v)) fail(c, 'must be true or false (yes/no, y/n, 1/0; empty is false)');
        return false;
      };

      const name = text('name', FIELD_LIMITS.name, true);
      const rawType = value('type');
      const type = rawType.toUpperCase().replace(/[\s-]+/g, '_');
      if (rawType === '') fail('type', 'is required');
      else if (!(LOCATION_TYPES as readonly string[]).includes(type)) fail('type', `must be one of ${LOCATION_TYPES.join(', ')}`);
      const address = text('address', FIELD_LIMITS.address, false);
      const latitude = number('latitude', -90, 90, true);
      const longitude = number('longitude', -180, 180, true);
      const amenities = { parking: bool('parking'), showers: bool('showers'), diesel: bool('diesel') };
      const fuelDiscountPerGallon = number('fuelDiscountPerGallon', 0, MAX_FUEL_DISCOUNT, false);
      const externalId = text('externalId', FIELD_LIMITS.externalId, false);
      if (externalId !== null) {
        const first = externalIdRows.get(externalId);
        if (first !== undefined) fail('externalId', `duplicates row ${first}`);
        else externalIdRows.set(externalId, record.row);
      }
      if (rowErrors.length === 0) {
        rows.push({
          row: record.row,
          fields: { name: name!, type: type as LocationType, address, latitude: latitude!, longitude: longitude!, amenities, fuelDiscountPerGallon, externalId },
        });
      }
    }
    if (rowErrors.length > 0) {
      invalidRows += 1;
      errors.push(...rowErrors);
    }
  }
  return errors.length > 0 ? { kind: 'invalid', errors, invalidRows } : { kind: 'ok', rows };
}
