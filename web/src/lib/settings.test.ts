import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS as SERVER_EVENTS } from '../../../src/domain/webhooks/events.js';
import { defaultAlertSettings, defaultHosSettings, defaultMonitoringSettings } from '../../../src/modules/settings/settings.defaults.js';
import {
  ALERT_FIELDS,
  HOS_FIELDS,
  MONITORING_FIELDS,
  RULE_SETS,
  WEBHOOK_EVENTS,
  changes,
  configFieldLabel,
  configFields,
  describeCounts,
  describeEvents,
  preciseTime,
  eventsToSend,
  fieldErrors,
  formatSetting,
  isSecretField,
  linkedDrivers,
  sentence,
  toDraft,
  utcOffset,
} from './settings';

describe('settings forms', () => {
  it('have a field for every setting the server keeps, and no other', () => {
    expect(ALERT_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(defaultAlertSettings()).sort());
    expect(MONITORING_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(defaultMonitoringSettings(60)).sort());
    expect(HOS_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(defaultHosSettings()).sort());
    expect(RULE_SETS.map((r) => r.value)).toContain(defaultHosSettings().ruleSet);
  });

  it('formats values with their units', () => {
    const hours = ALERT_FIELDS[0]!;
    expect(formatSetting(hours, 1)).toBe('1 hour');
    expect(formatSetting(hours, 0.5)).toBe('0.5 hours');
    expect(formatSetting(ALERT_FIELDS.find((f) => f.key === 'enableWeatherAlerts')!, false)).toBe('Off');
    expect(formatSetting(HOS_FIELDS[0]!, 'US_PROPERTY_60_7')).toMatch(/60 hours \/ 7 days/);
    expect(formatSetting(HOS_FIELDS.find((f) => f.key === 'homeTerminalUtcOffsetMinutes')!, -360)).toBe('-360 minutes (UTC−06:00)');
    expect(utcOffset(330)).toBe('UTC+05:30');
    expect(utcOffset(0)).toBe('UTC+00:00');
  });

  it('sends only the changed fields, numbers as numbers, and refuses blanks', () => {
    const current = defaultAlertSettings() as unknown as Record<string, unknown>;
    const draft = toDraft(ALERT_FIELDS, current);
    expect(draft.hosApproachingThresholdHours).toBe('1');
    expect(changes(ALERT_FIELDS, current, draft)).toEqual({ body: {}, errors: {} });
    expect(changes(ALERT_FIELDS, current, { ...draft, routeDeviationThresholdMiles: ' 7.5 ', enableWeatherAlerts: false })).toEqual({
      body: { routeDeviationThresholdMiles: 7.5, enableWeatherAlerts: false },
      errors: {},
    });
    expect(changes(ALERT_FIELDS, current, { ...draft, dockDelayThresholdMinutes: '' }).errors).toEqual({ dockDelayThresholdMinutes: 'Enter a number' });
    expect(changes(ALERT_FIELDS, current, { ...draft, dockDelayThresholdMinutes: 'abc' }).errors).toEqual({ dockDelayThresholdMinutes: 'Enter a number' });
  });
});

describe('server errors on form fields', () => {
  it('maps validation details to fields, the first message per field', () => {
    const err = {
      body: {
        message: 'Validation failed',
        details: [
          { field: 'body.hosApproachingThresholdHours', message: 'must be <= 11' },
          { field: 'body.hosApproachingThresholdHours', message: 'second' },
          { field: 'body.config.apiToken', message: 'is required' },
          { field: 'body', message: 'must have at least 1 property' },
        ],
      },
    };
    expect(fieldErrors(err)).toEqual({ hosApproachingThresholdHours: 'Must be at most 11.', 'config.apiToken': 'Is required.' });
    expect(fieldErrors(new Error('x'))).toEqual({});
    expect(fieldErrors(null)).toEqual({});
    expect(sentence('must be >= 5.')).toBe('Must be at least 5.');
  });
});

describe('webhook events', () => {
  it('lists the catalogue of the server', () => {
    expect(WEBHOOK_EVENTS.map((e) => e.name)).toEqual([...SERVER_EVENTS]);
  });

  it('sends the wildcard alone, or the checked names in catalogue order', () => {
    expect(eventsToSend(true, new Set(['alert.created']))).toEqual(['*']);
    expect(eventsToSend(false, new Set(['route.planned', 'alert.created', 'nonsense']))).toEqual(['alert.created', 'route.planned']);
    expect(describeEvents(['*'])).toBe('All events');
    expect(describeEvents(['alert.created', 'route.planned'])).toBe('alert.created, route.planned');
  });
});

describe('integration config fields', () => {
  it('labels keys and spots credentials', () => {
    expect(configFieldLabel('apiToken')).toBe('API token');
    expect(configFieldLabel('orgId')).toBe('Org ID');
    expect(configFieldLabel('base_url')).toBe('Base URL');
    expect(configFieldLabel('syncIntervalMinutes')).toBe('Sync interval minutes');
    expect(isSecretField('apiToken', undefined)).toBe(true);
    expect(isSecretField('apiToken', ['clientSecret'])).toBe(false);
    expect(isSecretField('orgId', undefined)).toBe(false);
    expect(describeCounts({ vehicles: 2, locations: 1200, faults: 0, unmatchedDrivers: 1 })).toBe('2 vehicles, 1,200 locations, 1 unmatched drivers');
    expect(describeCounts(null)).toBe('—');
    expect(describeCounts({ logs: 0 })).toBe('nothing new');
    expect(preciseTime('2025-11-25T17:55:04Z', 'America/Chicago')).toBe('Tue, Nov 25, 11:55:04');
    expect(preciseTime(null)).toBe('—');
  });

  it('lists a vendor form: required first, no separate sync interval, credentials as secrets', () => {
    const fields = configFields({ requiredFields: ['apiUrl', 'apiKey'], optionalFields: ['companyId', 'syncIntervalMinutes', 'apiUrl'], secretFields: ['apiKey'] });
    expect(fields).toEqual([
      { key: 'apiUrl', label: 'API URL', required: true, secret: false },
      { key: 'apiKey', label: 'API key', required: true, secret: true },
      { key: 'companyId', label: 'Company ID', required: false, secret: false },
    ]);
  });
});

describe('drivers an invitation can link', () => {
  it('leaves out drivers with an account or a pending invitation', () => {
    const linked = linkedDrivers(
      [
        { driverId: 'drv_1', status: 'ACTIVE', email: 'a@x.test' },
        { driverId: null, status: 'ACTIVE', email: 'b@x.test' },
      ],
      [
        { driverId: 'drv_2', status: 'PENDING', email: 'c@x.test' },
        { driverId: 'drv_3', status: 'REVOKED', email: 'd@x.test' },
        { driverId: 'drv_1', status: 'PENDING', email: 'e@x.test' },
      ],
    );
    expect([...linked.entries()].sort()).toEqual([
      ['drv_1', 'account a@x.test'],
      ['drv_2', 'invited as c@x.test'],
    ]);
  });
});
