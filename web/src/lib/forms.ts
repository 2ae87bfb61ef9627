/**
 * Record forms described by field lists: the values a form starts from, the JSON body it sends (create:
 * empty optional fields left out; update: only what changed, a cleared field as null), and the server's
 * validation details mapped back onto the fields. Pure (tested in forms.test.ts).
 */

export type FieldKind = 'text' | 'email' | 'tel' | 'number' | 'integer' | 'datetime' | 'select' | 'checkbox';

export interface FieldSpec {
  /** The body property; dotted for a nested object (`amenities.parking`). */
  name: string;
  label: string;
  kind?: FieldKind;
  required?: boolean;
  options?: Array<{ value: string; label: string }>;
  hint?: string;
  placeholder?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number | 'any';
  autoComplete?: string;
  /** The value a new record's form starts with. */
  defaultValue?: string | boolean;
  /** Shown only when creating (the record changes it elsewhere, e.g. a status with its own actions). */
  createOnly?: boolean;
}

export type FormValues = Record<string, string | boolean>;
export type FieldErrors = Record<string, string>;
type Json = Record<string, unknown>;

export function getPath(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Json)[key];
  }
  return v;
}

function setPath(target: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = target;
  keys.slice(0, -1).forEach((k) => {
    if (typeof o[k] !== 'object' || o[k] === null) o[k] = {};
    o = o[k] as Json;
  });
  o[keys[keys.length - 1]!] = value;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as the value of a datetime-local input (the browser's local time), '' for none. */
export function localInputFromIso(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (the browser's local time) as an ISO time; null when it is not a time. */
export function isoFromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The form's starting values: the record's (when editing) or each field's default. */
export function initialValues(fields: FieldSpec[], record?: unknown): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (record === undefined) {
      values[f.name] = f.defaultValue ?? (f.kind === 'checkbox' ? false : '');
      continue;
    }
    const v = getPath(record, f.name);
    if (f.kind === 'checkbox') values[f.name] = v === true;
    else if (f.kind === 'datetime') values[f.name] = localInputFromIso(typeof v === 'string' ? v : null);
    else values[f.name] = v === null || v === undefined ? '' : String(v);
  }
  return values;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parse(f: FieldSpec, raw: string | boolean | undefined): Parsed {
  if (f.kind === 'checkbox') return { ok: true, value: raw === true };
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return { ok: true, value: null };
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(text.replace(/,/g, ''));
      if (!Number.isFinite(n)) return { ok: false, error: 'must be a number' };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'must be a whole number' };
      return { ok: true, value: n };
    }
    case 'datetime': {
      const iso = isoFromLocalInput(text);
      return iso ? { ok: true, value: iso } : { ok: false, error: 'must be a date and time' };
    }
    default:
      return { ok: true, value: text };
  }
}

function same(f: FieldSpec, a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined || a === '') && (b === null || b === undefined || b === '')) return true;
  if (f.kind === 'datetime' && typeof a === 'string' && typeof b === 'string') return Date.parse(a) === Date.parse(b);
  if (f.kind === 'checkbox') return (a === true) === (b === true);
  return a === b;
}

/**
 * The request body from the form's values. Without `original` (create): every non-empty field, empty
 * optional fields left out. With `original` (update): only the fields whose value differs from the
 * record's, a cleared optional field as null. A value that cannot be parsed is reported in `errors`.
 */
export function buildBody(fields: FieldSpec[], values: FormValues, original?: unknown): { body: Json; errors: FieldErrors } {
  const body: Json = {};
  const errors: FieldErrors = {};
  for (const f of fields) {
    if (original !== undefined && f.createOnly) continue;
    const parsed = parse(f, values[f.name]);
    if (!parsed.ok) {
      errors[f.name] = parsed.error;
      continue;
    }
    let value = parsed.value;
    if (value === null && f.required) value = '';
    if (original === undefined) {
      if (value === null) continue;
      if (f.kind === 'checkbox' && value === false && f.defaultValue === undefined) continue;
      setPath(body, f.name, value);
    } else if (!same(f, getPath(original, f.name), value)) {
      setPath(body, f.name, value);
    }
  }
  return { body, errors };
}

/** A server validation message made readable (no regular expressions or format names). */
export function friendlyMessage(message: string): string {
  if (/^must match pattern/.test(message)) return 'is not in the expected format';
  const format = /^must match format "([^"]+)"/.exec(message);
  if (format) return format[1] === 'email' ? 'must be an email address' : format[1] === 'date-time' ? 'must be a date and time' : `must be a valid ${format[1]}`;
  return message.replace(/^must NOT have (fewer|more) than/, (_, w: string) => `must have ${w === 'fewer' ? 'at least' : 'at most'}`).replace(/^must be (>=|<=|>|<) /, (_, op: string) => `must be ${{ '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' }[op] ?? op} `);
}

/**
 * The server's error details ([{field: 'body.firstName', message}]) on the form's fields; details for
 * other fields (or none) come back in `other` as "field message" lines.
 */
export function errorsFromDetails(details: unknown, fields: FieldSpec[]): { fieldErrors: FieldErrors; other: string[] } {
  const fieldErrors: FieldErrors = {};
  const other: string[] = [];
  if (!Array.isArray(details)) return { fieldErrors, other };
  const names = new Set(fields.map((f) => f.name));
  for (const d of details as Array<{ field?: unknown; message?: unknown }>) {
    const field = typeof d?.field === 'string' ? d.field.replace(/^body\.?/, '') : '';
    const message = friendlyMessage(typeof d?.message === 'string' ? d.message : 'is invalid');
    // A nested property's error (amenities.parking) belongs to that field; an object's own to its first field.
    const target = names.has(field) ? field : [...names].find((n) => n.startsWith(`${field}.`) && field !== '');
    if (target) fieldErrors[target] ??= message;
    else other.push(field ? `${field} ${message}` : message);
  }
  return { fieldErrors, other };
}
