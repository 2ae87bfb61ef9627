import { describe, expect, it } from 'vitest';
import { buildBody, errorsFromDetails, friendlyMessage, initialValues, isoFromLocalInput, localInputFromIso, type FieldSpec } from './forms';

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'address', label: 'Address' },
  { name: 'year', label: 'Year', kind: 'integer' },
  { name: 'mpg', label: 'MPG', kind: 'number' },
  { name: 'pickup', label: 'Pickup', kind: 'datetime' },
  { name: 'amenities.parking', label: 'Parking', kind: 'checkbox' },
  { name: 'amenities.diesel', label: 'Diesel', kind: 'checkbox' },
  { name: 'status', label: 'Status', kind: 'select', defaultValue: 'ACTIVE', createOnly: true },
];

describe('record forms', () => {
  it('starts a new record from the defaults and an existing one from its values', () => {
    expect(initialValues(FIELDS)).toEqual({ name: '', address: '', year: '', mpg: '', pickup: '', 'amenities.parking': false, 'amenities.diesel': false, status: 'ACTIVE' });
    const record = { name: 'Yard', address: null, year: 2020, mpg: 6.5, pickup: null, amenities: { parking: true, diesel: false }, status: 'INACTIVE' };
    expect(initialValues(FIELDS, record)).toMatchObject({ name: 'Yard', address: '', year: '2020', mpg: '6.5', pickup: '', 'amenities.parking': true, 'amenities.diesel': false, status: 'INACTIVE' });
  });

  it('creates with the filled fields only, numbers as numbers, nested objects nested, trimmed text', () => {
    const values = { ...initialValues(FIELDS), name: '  North yard ', year: '2021', mpg: '7.25', 'amenities.parking': true };
    expect(buildBody(FIELDS, values)).toEqual({ body: { name: 'North yard', year: 2021, mpg: 7.25, amenities: { parking: true }, status: 'ACTIVE' }, errors: {} });
  });

  it('reports what cannot be parsed on its field', () => {
    const values = { ...initialValues(FIELDS), name: 'x', year: '2020.5', mpg: 'fast', pickup: 'tomorrow' };
    expect(buildBody(FIELDS, values).errors).toEqual({ year: 'must be a whole number', mpg: 'must be a number', pickup: 'must be a date and time' });
  });

  it('updates only what changed, a cleared field as null, never a create-only field', () => {
    const record = { name: 'Yard', address: '1 Main St', year: 2020, mpg: 6.5, pickup: '2026-03-02T14:00:00.000Z', amenities: { parking: true, diesel: false }, status: 'ACTIVE' };
    const unchanged = initialValues(FIELDS, record);
    expect(buildBody(FIELDS, unchanged, record).body).toEqual({});
    const changed = { ...unchanged, address: '', mpg: '7', 'amenities.diesel': true, status: 'INACTIVE' };
    expect(buildBody(FIELDS, changed, record).body).toEqual({ address: null, mpg: 7, amenities: { diesel: true } });
    // A required field emptied is sent empty (the server says what is wrong), not null.
    expect(buildBody(FIELDS, { ...unchanged, name: ' ' }, record).body).toEqual({ name: '' });
  });

  it('round-trips times through the datetime-local value (the browser zone)', () => {
    const iso = '2026-03-02T14:05:00.000Z';
    expect(isoFromLocalInput(localInputFromIso(iso))).toBe(iso);
    expect(localInputFromIso(null)).toBe('');
    expect(localInputFromIso('nonsense')).toBe('');
    expect(isoFromLocalInput('2026-13-45')).toBeNull();
    expect(isoFromLocalInput('')).toBeNull();
  });

  it('puts the server validation details on the fields, the rest aside, readably', () => {
    const details = [
      { field: 'body.name', message: 'must NOT have fewer than 1 characters' },
      { field: 'body.year', message: 'must be >= 1980' },
      { field: 'body.amenities.parking', message: 'must be boolean' },
      { field: 'body.vin', message: 'must match pattern "^[A-HJ-NPR-Z0-9]{17}$"' },
      { field: 'querystring.near', message: 'latitude must be between -90 and 90' },
    ];
    expect(errorsFromDetails(details, FIELDS)).toEqual({
      fieldErrors: { name: 'must have at least 1 characters', year: 'must be at least 1980', 'amenities.parking': 'must be boolean' },
      other: ['vin is not in the expected format', 'querystring.near latitude must be between -90 and 90'],
    });
    expect(errorsFromDetails(undefined, FIELDS)).toEqual({ fieldErrors: {}, other: [] });
  });

  it('says formats in words', () => {
    expect(friendlyMessage('must match format "email"')).toBe('must be an email address');
    expect(friendlyMessage('must match format "date-time"')).toBe('must be a date and time');
    expect(friendlyMessage('must NOT have more than 17 characters')).toBe('must have at most 17 characters');
    expect(friendlyMessage('is required')).toBe('is required');
  });
});
