import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  UNRESOLVED,
  actorLabel,
  addNewAlert,
  alertFromEvent,
  announcement,
  applyChange,
  filtersFromSearch,
  keyLabel,
  alertTypeLabel,
  kindLabel,
  raisedLabel,
  listQuery,
  matchesFilters,
  metadataEntries,
  searchFromFilters,
  type AlertRow,
} from './alert-feed';
import { badgeText, openAlertsLabel } from './alert-badge';

const event = (over: Record<string, unknown> = {}) => ({
  id: 'alt_new1',
  type: 'ROUTE_DEVIATION',
  category: 'ROUTE_DEVIATION',
  priority: 'HIGH',
  status: 'ACTIVE',
  title: 'Off route',
  message: 'The truck is 30 miles off its planned path',
  driverId: 'drv_1',
  driverName: 'Dana Driver',
  vehicleId: null,
  vehicleUnit: null,
  routePlanId: 'rte_1',
  metadata: { distanceMiles: 30.456 },
  createdAt: '2026-03-02T12:00:00.000Z',
  ...over,
});

const row = (id: string, over: Partial<AlertRow> = {}): AlertRow => ({ ...alertFromEvent(event({ id }))!, ...over });

describe('alert feed filters', () => {
  it('reads filters and page from the address bar, ACTIVE by default', () => {
    expect(filtersFromSearch('')).toEqual({ filters: DEFAULT_FILTERS, page: 1 });
    expect(filtersFromSearch('?status=&priority=CRITICAL,HIGH&driverId=drv_9&page=3')).toEqual({
      filters: { ...DEFAULT_FILTERS, status: '', priority: 'CRITICAL,HIGH', driverId: 'drv_9' },
      page: 3,
    });
    expect(filtersFromSearch('?page=-4').page).toBe(1);
    expect(filtersFromSearch('?page=abc').page).toBe(1);
  });

  it('writes them back, leaving defaults out, and round-trips', () => {
    expect(searchFromFilters(DEFAULT_FILTERS)).toBe('');
    const f = { ...DEFAULT_FILTERS, status: '', type: 'LOW_FUEL' };
    expect(searchFromFilters(f, 2)).toBe('?status=&type=LOW_FUEL&page=2');
    expect(filtersFromSearch(searchFromFilters(f, 2))).toEqual({ filters: f, page: 2 });
  });

  it('queries only the filters that are set', () => {
    expect(listQuery(DEFAULT_FILTERS, 1, 20)).toEqual({ status: 'ACTIVE', sort: 'priority', page: 1, pageSize: 20 });
    expect(listQuery({ ...DEFAULT_FILTERS, status: '', category: 'WEATHER', sort: 'newest' }, 2, 50)).toEqual({ category: 'WEATHER', sort: 'newest', page: 2, pageSize: 50 });
  });

  it('matches live alerts against the filters, lists and the HOS alias included', () => {
    const a = row('alt_a');
    expect(matchesFilters(a, DEFAULT_FILTERS)).toBe(true);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, status: 'RESOLVED' })).toBe(false);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, status: UNRESOLVED, priority: 'CRITICAL,HIGH' })).toBe(true);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, category: 'WEATHER' })).toBe(false);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, driverId: 'drv_2' })).toBe(false);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, type: 'ROUTE_DEVIATION' })).toBe(true);
    const hos = row('alt_h', { type: 'HOS_BREAK_REQUIRED', category: 'HOS_VIOLATION' });
    expect(matchesFilters(hos, { ...DEFAULT_FILTERS, type: 'HOS_APPROACHING_LIMIT' })).toBe(true);
    expect(matchesFilters(a, { ...DEFAULT_FILTERS, type: 'HOS_APPROACHING_LIMIT' })).toBe(false);
  });
});

describe('alert feed events', () => {
  it('turns an alert:new payload into a row; refuses what is not an alert', () => {
    expect(alertFromEvent(event())).toMatchObject({ id: 'alt_new1', priority: 'HIGH', driverName: 'Dana Driver', routePlanId: 'rte_1', updatedAt: '2026-03-02T12:00:00.000Z', acknowledgedAt: null, resolution: null });
    expect(alertFromEvent(event({ createdAt: Date.parse('2026-03-02T12:00:00Z'), category: undefined }))).toMatchObject({ createdAt: '2026-03-02T12:00:00.000Z', category: 'ROUTE_DEVIATION' });
    expect(alertFromEvent(event({ type: 'NOT_A_TYPE' }))).toBeNull();
    expect(alertFromEvent(null)).toBeNull();
    expect(alertFromEvent('alert')).toBeNull();
  });

  it('puts a new alert on top of page 1 once, keeping the page size', () => {
    const feed = { rows: [row('alt_1'), row('alt_2')], total: 5 };
    const a = alertFromEvent(event({ id: 'alt_3' }))!;
    const first = addNewAlert(feed, a, { ...DEFAULT_FILTERS, sort: 'newest' }, 1, 2);
    expect(first.outcome).toBe('added');
    expect(first.feed.rows.map((r) => r.id)).toEqual(['alt_3', 'alt_1']);
    expect(first.feed.total).toBe(6);
    // The same event again (a reconnect replay, or the reload that raced it): nothing changes.
    const again = addNewAlert(first.feed, a, { ...DEFAULT_FILTERS, sort: 'newest' }, 1, 2);
    expect(again).toEqual({ feed: first.feed, outcome: 'duplicate' });
  });

  it('most urgent first: a new alert takes its place by priority, before the older alerts as urgent as it', () => {
    const feed = { rows: [row('alt_c', { priority: 'CRITICAL' }), row('alt_h', { priority: 'HIGH' }), row('alt_l', { priority: 'LOW' })], total: 3 };
    const high = addNewAlert(feed, alertFromEvent(event({ id: 'alt_new', priority: 'HIGH' }))!, DEFAULT_FILTERS, 1, 20);
    expect(high.feed.rows.map((r) => r.id)).toEqual(['alt_c', 'alt_new', 'alt_h', 'alt_l']);
    const low = addNewAlert(feed, alertFromEvent(event({ id: 'alt_low', priority: 'LOW' }))!, DEFAULT_FILTERS, 1, 3);
    expect(low.feed.rows.map((r) => r.id)).toEqual(['alt_c', 'alt_h', 'alt_low']);
    // Past the end of a full page 1 it only counts.
    expect(addNewAlert({ rows: feed.rows.slice(0, 2), total: 9 }, alertFromEvent(event({ id: 'alt_x', priority: 'LOW' }))!, DEFAULT_FILTERS, 1, 2).outcome).toBe('other-page');
    // Newest first: on top.
    expect(addNewAlert(feed, alertFromEvent(event({ id: 'alt_top', priority: 'LOW' }))!, { ...DEFAULT_FILTERS, sort: 'newest' }, 1, 20).feed.rows[0]!.id).toBe('alt_top');
  });

  it('leaves out alerts the filters exclude, and on later pages only counts them', () => {
    const feed = { rows: [row('alt_1')], total: 21 };
    expect(addNewAlert(feed, alertFromEvent(event({ id: 'alt_9', priority: 'LOW' }))!, { ...DEFAULT_FILTERS, priority: 'CRITICAL' }, 1, 20).outcome).toBe('filtered');
    const later = addNewAlert(feed, alertFromEvent(event({ id: 'alt_9' }))!, DEFAULT_FILTERS, 2, 20);
    expect(later.outcome).toBe('other-page');
    expect(later.feed).toEqual({ rows: feed.rows, total: 22 });
  });

  it('merges updates and resolutions into their rows', () => {
    const feed = { rows: [row('alt_1'), row('alt_2')], total: 2 };
    const acked = applyChange(feed, { id: 'alt_2', type: 'ROUTE_DEVIATION', status: 'ACKNOWLEDGED', acknowledgedBy: 'usr_1', acknowledgedAt: '2026-03-02T12:05:00.000Z', updatedAt: '2026-03-02T12:05:00.000Z', change: 'acknowledged' }, DEFAULT_FILTERS);
    expect(acked.missing).toBe(false);
    expect(acked.feed.rows[1]).toMatchObject({ id: 'alt_2', status: 'ACKNOWLEDGED', acknowledgedBy: 'usr_1', acknowledgedAt: '2026-03-02T12:05:00.000Z', title: 'Off route', driverName: 'Dana Driver' });
    expect(acked.feed.rows[0]).toBe(feed.rows[0]);
    const resolved = applyChange(acked.feed, { id: 'alt_1', type: 'ROUTE_DEVIATION', status: 'RESOLVED', resolvedBy: 'system', resolvedAt: '2026-03-02T12:30:00.000Z', resolution: 'Back on route' }, DEFAULT_FILTERS);
    expect(resolved.feed.rows[0]).toMatchObject({ status: 'RESOLVED', resolvedBy: 'system', resolution: 'Back on route', updatedAt: '2026-03-02T12:30:00.000Z' });
  });

  it('asks for a reload when an unlisted alert comes to match (a snooze ran out)', () => {
    const feed = { rows: [row('alt_1')], total: 1 };
    expect(applyChange(feed, { id: 'alt_7', type: 'LOW_FUEL', status: 'ACTIVE', priority: 'MEDIUM' }, DEFAULT_FILTERS)).toEqual({ feed, missing: true });
    expect(applyChange(feed, { id: 'alt_7', type: 'LOW_FUEL', status: 'ACTIVE', priority: 'MEDIUM' }, { ...DEFAULT_FILTERS, priority: 'CRITICAL' }).missing).toBe(false);
    expect(applyChange(feed, { id: 'alt_7', type: 'LOW_FUEL', status: 'RESOLVED' }, DEFAULT_FILTERS).missing).toBe(false);
    expect(applyChange(feed, { nothing: true }, DEFAULT_FILTERS).missing).toBe(false);
  });
});

describe('alert feed words', () => {
  it('labels the badge and announces arrivals', () => {
    expect(openAlertsLabel(1)).toBe('1 open alert');
    expect(openAlertsLabel(3)).toBe('3 open alerts');
    expect(badgeText(7)).toBe('7');
    expect(badgeText(140)).toBe('99+');
    expect(announcement({ priority: 'CRITICAL', title: 'HOS violation', driverName: 'Dana Driver' })).toBe('New critical priority alert: HOS violation — Dana Driver');
    expect(announcement({ priority: 'LOW', title: 'Weather advisory', driverName: null })).toBe('New low priority alert: Weather advisory');
  });

  it('names actors without exposing ids', () => {
    expect(actorLabel('usr_me', 'usr_me')).toBe('You');
    expect(actorLabel('system', 'usr_me')).toBe('Monitoring (automatic)');
    expect(actorLabel('usr_other', 'usr_me')).toBe('Another user');
    expect(actorLabel(null, 'usr_me')).toBe('—');
  });

  it('writes distances as alert sentences do: tenths under ten miles, whole miles from ten on', () => {
    expect(metadataEntries({ distanceMiles: 6.26 })).toEqual([['Off the path by', '6.3 mi']]);
    expect(metadataEntries({ distanceMiles: 9.96 })).toEqual([['Off the path by', '10 mi']]);
    expect(metadataEntries({ distanceMiles: 30.7 })).toEqual([['Off the path by', '31 mi']]);
  });

  it('lists metadata readably, the recommended action first', () => {
    expect(keyLabel('driveTimeRemaining')).toBe('Drive time remaining');
    expect(keyLabel('eta_delay-minutes')).toBe('Eta delay minutes');
    expect(metadataEntries({ distanceMiles: 30.456, offRoute: true, recommendedAction: 'PLAN_REST_STOP', empty: null, latitude: 40.15, someFlag: true, where: { lat: 1 } })).toEqual([
      ['Recommended', 'Plan a rest stop'],
      ['Off the path by', '30 mi'],
      ['Some flag', 'Yes'],
    ]);
    // What the issue saw in the drawer: codes, a vendor id, decimal hours. Now words and h:mm.
    expect(
      metadataEntries({ limit: 'DRIVE', restNeeded: 'FULL_REST', hosSource: 'samsara', driveTimeRemaining: 0.54, currentHoursDriven: 10.46, minutesRemaining: 32, dutyStatus: 'ON_DUTY_DRIVING' }),
    ).toEqual([
      ['Limit', 'Driving limit'],
      ['Rest needed', '10-hour rest'],
      ['Clocks from', 'Samsara'],
      ['Drive time left', '0:32'],
      ['Driven', '10:28'],
      ['Time left', '32 min'],
      ['Duty status', 'Driving'],
    ]);
    expect(metadataEntries({ violations: [{ kind: 'DRIVE', explanation: 'Drove 0:25 past the 11-hour limit.' }], stopType: 'DELIVERY', unknownCode: 'SOME_CODE' })).toEqual([
      ['Violations', 'Drove 0:25 past the 11-hour limit.'],
      ['Stop', 'Delivery'],
      ['Unknown code', 'Some code'],
    ]);
    expect(metadataEntries(undefined)).toEqual([]);
    expect(metadataEntries({ positionAt: '2026-03-02T17:54:15.828Z', note: '2026 plan' }, 'America/Chicago')).toEqual([
      ['Position at', 'Mon, Mar 2, 11:54 CST'],
      ['Note', '2026 plan'],
    ]);
  });

  it('names types and categories, and says when an alert was raised', () => {
    expect(kindLabel('HOS_APPROACHING_DRIVE_LIMIT')).toBe('Approaching the driving limit');
    expect(kindLabel('SEVERE_WEATHER_IN_PATH')).toBe('Severe weather ahead');
    expect(kindLabel('HOS_VIOLATION')).toBe('HOS violation');
    expect(kindLabel('ROUTE_DEVIATION')).toBe('Off route');
    // Reached is not approaching.
    expect(alertTypeLabel({ type: 'HOS_APPROACHING_DRIVE_LIMIT', metadata: { limitReached: true } })).toBe('Driving limit reached');
    expect(alertTypeLabel({ type: 'HOS_APPROACHING_DRIVE_LIMIT', metadata: { limitReached: false } })).toBe('Approaching the driving limit');
    const now = Date.parse('2026-03-02T12:00:00Z');
    expect(raisedLabel('2026-03-02T11:59:30Z', now)).toBe('just now');
    // A server clock a little ahead of the browser's: not "in 10 seconds".
    expect(raisedLabel('2026-03-02T12:00:10Z', now)).toBe('just now');
    expect(raisedLabel('2026-03-02T11:55:00Z', now)).toBe('5 minutes ago');
    expect(raisedLabel('2026-03-02T09:00:00Z', now)).toBe('3 hours ago');
    expect(raisedLabel('nonsense', now)).toBe('—');
  });
});
