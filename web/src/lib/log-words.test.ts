import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { actorText, certificationText, clockTime, dayTitle, entriesText, periodText, problemText, recordStatusText, remarks, shortDayTitle, violationText } from './log-words';

const CODE = /\b[A-Z]{2,}_[A-Z_]+\b/;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('a daily log in words', () => {
  it('writes times on the home terminal’s clocks with the zone, dates as words', () => {
    expect(clockTime('2026-03-04T01:00:00Z', 'America/Denver')).toBe('18:00 MST');
    expect(clockTime('2026-07-04T00:00:00Z', 'America/Denver')).toBe('18:00 MDT');
    expect(dayTitle('2026-11-01')).toBe('Sunday, Nov 1, 2026');
    expect(shortDayTitle('2026-11-01')).toBe('Sunday, Nov 1');
  });

  it('says how long the period is on the days daylight saving time begins or ends', () => {
    expect(periodText({ periodStart: '2026-11-01T05:00:00Z', periodEnd: '2026-11-02T06:00:00Z', timeZone: 'America/Chicago' })).toBe(
      'From 00:00 CDT to 00:00 CST the next day, on the home terminal’s clocks (America/Chicago): 25 hours, daylight saving time ended.',
    );
    expect(periodText({ periodStart: '2026-03-08T06:00:00Z', periodEnd: '2026-03-09T05:00:00Z', timeZone: 'America/Chicago' })).toContain(': 23 hours, daylight saving time began.');
    expect(periodText({ periodStart: '2026-03-03T07:00:00Z', periodEnd: '2026-03-04T07:00:00Z', timeZone: 'America/Denver' })).toBe('From 00:00 MST to 00:00 MST the next day, on the home terminal’s clocks (America/Denver).');
  });

  it('lists each change of status with its time, place, who recorded it, note and annotation — no codes', () => {
    const list = remarks({
      timeZone: 'America/Denver',
      events: [
        { recordId: 'dst_1', status: 'OFF_DUTY', start: '2026-03-03T07:00:00Z', continued: true, location: null, origin: 'DRIVER', note: null, annotation: null },
        { recordId: 'dst_2', status: 'ON_DUTY_NOT_DRIVING', start: '2026-03-03T14:00:00Z', continued: false, location: 'near Denver, CO', origin: 'AUTOMATIC', note: 'Pre-trip', annotation: null },
        { recordId: 'dst_3', status: 'OFF_DUTY', start: '2026-03-04T01:00:00Z', continued: false, location: null, origin: 'OTHER_USER', note: null, annotation: 'Forgot to go off duty' },
      ],
    });
    expect(list.map((r) => [r.time, r.status, r.place, r.origin, r.note, r.annotation])).toEqual([
      ['00:00 MST, from the day before', 'Off duty', null, 'Entered by the driver', null, null],
      ['07:00 MST', 'On duty', 'near Denver, CO', 'Recorded by the ELD', 'Pre-trip', null],
      ['18:00 MST', 'Off duty', null, 'Entered by another user', null, 'Forgot to go off duty'],
    ]);
    for (const r of list) expect(Object.values(r).join(' ')).not.toMatch(CODE);
  });

  it('writes a violation with its limit in words, the time past it h:mm and its times on the clocks', () => {
    const v = { type: 'DRIVE', rule: '49 CFR 395.3(a)(3)(i) 11-hour driving limit', start: '2026-11-01T22:00:00Z', end: '2026-11-01T23:00:00Z', overHours: 1, explanation: '' };
    expect(violationText(v, 'America/Chicago')).toBe('Driving limit: 1:00 past it, from 16:00 CST to 17:00 CST (49 CFR 395.3(a)(3)(i) 11-hour driving limit)');
    expect(violationText({ ...v, type: 'BREAK', end: v.start, overHours: 0 }, 'America/Chicago')).toBe('30-minute break: at 16:00 CST (49 CFR 395.3(a)(3)(i) 11-hour driving limit)');
  });

  it('states the certification in words', () => {
    const zone = 'America/Chicago';
    expect(certificationText({ certified: false, certifiedAt: null, recertificationRequired: false, certifications: 0 }, zone)).toBe('Not certified');
    expect(certificationText({ certified: true, certifiedAt: '2026-11-02T14:15:00Z', recertificationRequired: false, certifications: 1 }, zone)).toBe('Certified by the driver at Mon, Nov 2, 08:15 CST');
    expect(certificationText({ certified: true, certifiedAt: '2026-11-02T14:15:00Z', recertificationRequired: false, certifications: 2 }, zone)).toBe('Certified by the driver at Mon, Nov 2, 08:15 CST (certified 2 times)');
    expect(certificationText({ certified: true, certifiedAt: '2026-11-02T14:15:00Z', recertificationRequired: true, certifications: 1 }, zone)).toBe(
      'Changed after certification — to certify again (last certified Mon, Nov 2, 08:15 CST)',
    );
  });

  it('names record states, people and corrections in words', () => {
    expect(recordStatusText('INACTIVE_CHANGED')).toBe('Replaced by a correction');
    expect(recordStatusText('INACTIVE_CHANGE_REQUESTED')).toBe('Correction requested');
    expect(recordStatusText('INACTIVE_CHANGE_REJECTED', 'REJECTED')).toBe('Correction rejected');
    expect(recordStatusText('INACTIVE_CHANGE_REJECTED', 'CANCELLED')).toBe('Correction withdrawn');
    expect(recordStatusText('ACTIVE')).toBe('In the log');
    const who = { myUserId: 'usr_me', driverUserId: 'usr_drv', driverName: 'Dana Driver' };
    expect([actorText('usr_me', who), actorText('usr_drv', who), actorText('usr_x', who), actorText(null, who)]).toEqual(['You', 'Dana Driver', 'Another user', 'An API key or the system']);
    expect([actorText('usr_x', who, 'Dee Dispatcher'), actorText('usr_me', who, 'Me Myself')]).toEqual(['Dee Dispatcher', 'You']);
    expect(entriesText([{ status: 'OFF_DUTY', at: '2026-03-04T01:00:00Z' }, { status: 'SLEEPER_BERTH', at: '2026-03-04T03:00:00Z' }], 'America/Denver')).toBe('Off duty from 18:00 MST; Sleeper berth from 20:00 MST');
  });

  it('says what the server refused in words: fields named, times on the log’s clocks, no ISO timestamps', () => {
    const automatic = new ApiError(400, {
      message: 'Automatically recorded driving cannot be changed',
      details: [
        {
          field: 'body.from',
          message:
            'the correction overlaps driving the ELD recorded automatically from 2026-03-03T15:00:00.000Z to 2026-03-03T19:00:00.000Z: ELD specification (49 CFR Part 395 Subpart B, Appendix A) §4.3.2.8.2 — automatically recorded driving time cannot be shortened or changed to another duty status; correct the time around it',
        },
      ],
    });
    const text = problemText(automatic, 'America/Denver');
    expect(text).toMatch(/^Automatically recorded driving cannot be changed\. From: the correction overlaps driving the ELD recorded automatically from Tue, Mar 3, 08:00 MST to Tue, Mar 3, 12:00 MST: /);
    expect(text).not.toMatch(ISO);
    expect(problemText(new ApiError(400, { message: 'Validation failed', details: [{ field: 'body.entries.1.at', message: 'must be after the status before it' }] }), 'UTC')).toBe(
      'Validation failed. Status 2: must be after the status before it',
    );
    expect(problemText(new ApiError(403, { message: 'Only Dana Driver, signed in, can accept a correction of their log (49 CFR 395.30(c))' }), 'UTC')).toBe(
      'Only Dana Driver, signed in, can accept a correction of their log (49 CFR 395.30(c))',
    );
    expect(problemText(new Error('offline'), 'UTC')).toBe('offline');
  });
});
