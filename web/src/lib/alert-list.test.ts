import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, UNRESOLVED } from './alert-feed';
import { alertsHref, countLine, driverFilterOptions, emptyFeedTitle, isFiltered, snoozeLabel } from './alert-list';

describe('the alerts page around its feed', () => {
  it('keeps filters, page and the open alert in the address', () => {
    expect(alertsHref(DEFAULT_FILTERS, 1)).toBe('/alerts');
    expect(alertsHref(DEFAULT_FILTERS, 1, 'alr_1')).toBe('/alerts?alert=alr_1');
    expect(alertsHref({ ...DEFAULT_FILTERS, priority: 'HIGH' }, 2, 'alr 2')).toBe('/alerts?priority=HIGH&page=2&alert=alr%202');
    expect(alertsHref({ ...DEFAULT_FILTERS, status: '' }, 1)).toBe('/alerts?status=');
  });

  it('lists the drivers to filter by last name, after "All drivers"', () => {
    const options = driverFilterOptions([
      { id: 'drv_2', firstName: 'Zoe', lastName: 'Brown' },
      { id: 'drv_1', firstName: 'Ann', lastName: 'Young' },
      { id: 'drv_3', firstName: 'Al', lastName: 'Brown' },
    ]);
    expect(options.map((o) => o.label)).toEqual(['All drivers', 'Al Brown', 'Zoe Brown', 'Ann Young']);
    expect(options[1]).toEqual({ value: 'drv_3', label: 'Al Brown' });
    expect(driverFilterOptions([])).toEqual([{ value: '', label: 'All drivers' }]);
  });

  it('tells the default view from a filtered one and says so when the list is empty', () => {
    expect(isFiltered(DEFAULT_FILTERS)).toBe(false);
    expect(isFiltered({ ...DEFAULT_FILTERS, category: 'WEATHER' })).toBe(true);
    expect(emptyFeedTitle(DEFAULT_FILTERS)).toBe('No open alerts');
    expect(emptyFeedTitle({ ...DEFAULT_FILTERS, status: 'RESOLVED' })).toBe('No alerts match these filters');
    expect(emptyFeedTitle({ ...DEFAULT_FILTERS, driverId: 'drv_1' })).toBe('No alerts match these filters');
  });

  it('counts the alerts under the status filter’s name and words a snooze', () => {
    expect(countLine(DEFAULT_FILTERS, 1)).toBe('Open (active): 1 alert');
    expect(countLine({ ...DEFAULT_FILTERS, status: UNRESOLVED }, 3)).toBe('All unresolved: 3 alerts');
    expect(countLine({ ...DEFAULT_FILTERS, status: 'BOGUS' }, 0)).toBe('Matching: 0 alerts');
    expect(snoozeLabel(60)).toBe('1 hour');
    expect(snoozeLabel(90)).toBe('90 minutes');
  });
});
