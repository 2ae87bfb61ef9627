import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import {
  annotationProblem,
  canResolve,
  flagBadgeText,
  flaggedVehicles,
  flagSentence,
  flagsByVehicle,
  milesText,
  minutesText,
  placeText,
  problemText,
  sourceText,
  statusText,
  UNASSIGNED_STATUSES,
  unassignedHref,
} from './unassigned';
import { segmentWhen } from './unassigned-when';

const DALLAS = { latitude: 32.78, longitude: -96.8, name: 'near Dallas, TX' };
const DENVER = { latitude: 39.74, longitude: -104.99, name: 'near Denver, CO' };

describe('unassigned driving in words', () => {
  it('names every status and source in words, never the code', () => {
    expect(UNASSIGNED_STATUSES.map(statusText)).toEqual(['Unassigned', 'Waiting for the driver', 'Assigned', 'Annotated']);
    expect(['API', 'samsara', 'motive'].map(sourceText)).toEqual(['Reported through the API', 'Samsara', 'Motive']);
    // A source the dashboard does not know yet still reads as a word.
    expect(sourceText('geotab')).toBe('Geotab');
  });

  it('says the flag as a sentence, with the minutes an inspector looks for', () => {
    expect(flagSentence({ vehicleUnitNumber: 'T-105', unresolvedMinutesLast24Hours: 45 })).toBe(
      'T-105: 45 min of driving nobody has assumed in the last 24 hours — more than the 30 minutes an inspector looks for',
    );
    expect(flagSentence({ vehicleUnitNumber: 'T-7', unresolvedMinutesLast24Hours: 75 })).toMatch(/^T-7: 1 h 15 min of driving/);
    expect(flagBadgeText({ unresolvedMinutesLast24Hours: 45 })).toBe('Unassigned driving 0:45');
    expect(flagBadgeText({ unresolvedMinutesLast24Hours: 125 })).toBe('Unassigned driving 2:05');
    expect(minutesText(120)).toBe('2 h');
    expect(minutesText(0)).toBe('0 min');
  });

  it('keeps only the flagged vehicles, the most unresolved driving first', () => {
    const vehicles = [
      { vehicleId: 'veh_a', vehicleUnitNumber: 'T-10', unresolvedMinutesLast24Hours: 31, flagged: true },
      { vehicleId: 'veh_b', vehicleUnitNumber: 'T-2', unresolvedMinutesLast24Hours: 20, flagged: false },
      { vehicleId: 'veh_c', vehicleUnitNumber: 'T-9', unresolvedMinutesLast24Hours: 45, flagged: true },
      { vehicleId: 'veh_d', vehicleUnitNumber: 'T-3', unresolvedMinutesLast24Hours: 31, flagged: true },
    ];
    expect(flaggedVehicles(vehicles).map((v) => v.vehicleUnitNumber)).toEqual(['T-9', 'T-3', 'T-10']);
    expect([...flagsByVehicle(vehicles).keys()].sort()).toEqual(['veh_a', 'veh_c', 'veh_d']);
  });

  it('writes when in the zone the API gives the segment, with its abbreviation', () => {
    const times = { start: '2026-11-10T14:00:00.000Z', end: '2026-11-10T14:45:00.000Z' };
    expect(segmentWhen({ ...times, timeZone: 'America/Chicago' })).toBe('Tue, Nov 10, 08:00–08:45 CST');
    expect(segmentWhen({ ...times, timeZone: 'America/Denver' })).toBe('Tue, Nov 10, 07:00–07:45 MST');
  });

  it('writes places, miles and what can be done in words', () => {
    expect(placeText(DALLAS)).toBe('near Dallas, TX');
    expect(placeText(null)).toBe('Not reported');
    expect(milesText(6.34)).toBe('6.3 mi');
    expect(milesText(9.96)).toBe('10 mi');
    expect(milesText(31.2)).toBe('31 mi');
    expect(milesText(1234.4)).toBe('1,234 mi');
    expect(milesText(null)).toBe('—');
    expect(canResolve({ status: 'UNASSIGNED' })).toBe(true);
    expect(canResolve({ status: 'ASSIGNMENT_PENDING' })).toBe(false);
    expect(unassignedHref()).toBe('/unassigned-driving');
    expect(unassignedHref({ vehicleId: 'veh_1', status: 'UNASSIGNED' })).toBe('/unassigned-driving?vehicleId=veh_1&status=UNASSIGNED');
  });

  it('checks an annotation as the API does: 4 to 60 characters, blanks not counted', () => {
    expect(annotationProblem('Yard move')).toBeNull();
    expect(annotationProblem('  ok  ')).toBe('At least 4 characters (2 so far)');
    expect(annotationProblem('')).toMatch(/^Write the reason/);
    expect(annotationProblem('', true)).toBeNull();
    expect(annotationProblem('x'.repeat(61))).toBe('At most 60 characters (61 now)');
    expect(annotationProblem(` ${'x'.repeat(60)} `)).toBeNull();
  });

  it('says what the server refused in words: fields named, times in the zone, identifiers left out', () => {
    const refusal = new ApiError(400, {
      message: 'The driver’s log has automatically recorded driving at 2026-11-10T14:10:00.000Z (drv_Ab12Cd34)',
      details: [{ field: 'body.annotation', message: 'must NOT have fewer than 4 characters' }],
    });
    expect(problemText(refusal, 'America/Chicago')).toBe('The driver’s log has automatically recorded driving at Tue, Nov 10, 08:10 CST. Reason: must NOT have fewer than 4 characters');
    expect(problemText(new ApiError(409, { message: 'This unassigned driving is assigned; only unassigned driving can be annotated' }))).toBe(
      'This unassigned driving is assigned; only unassigned driving can be annotated',
    );
    expect(problemText(new Error('Failed to fetch'))).toBe('Failed to fetch');
  });
});
