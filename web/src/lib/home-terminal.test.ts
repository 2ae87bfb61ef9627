import { describe, expect, it } from 'vitest';
import { homeTerminalText, knownLocationText, withHomeTerminal, type HomeTerminal } from './home-terminal';

const DALLAS: HomeTerminal = { name: 'Dallas yard', address: 'Dallas, TX', latitude: 32.78, longitude: -96.8, timeZone: 'America/Chicago' };
const POINT: HomeTerminal = { name: 'near Houston, TX', address: null, latitude: 29.76, longitude: -95.37, timeZone: 'America/Chicago' };

describe('the home terminal in the driver form', () => {
  it('creates with the place and the name given; a body without it is left alone', () => {
    expect(withHomeTerminal({ firstName: 'A', homeTerminal: { address: 'Dallas, TX', name: 'Dallas yard' } })).toEqual({ firstName: 'A', homeTerminal: { address: 'Dallas, TX', name: 'Dallas yard' } });
    expect(withHomeTerminal({ homeTerminal: { address: 'Dallas, TX' } })).toEqual({ homeTerminal: { address: 'Dallas, TX' } });
    expect(withHomeTerminal({ firstName: 'A' }, DALLAS)).toEqual({ firstName: 'A' });
  });

  it('sends the whole terminal when one field changes: a new name keeps the place; a new place takes its own name unless one is given', () => {
    expect(withHomeTerminal({ homeTerminal: { name: 'North yard' } }, DALLAS)).toEqual({ homeTerminal: { address: 'Dallas, TX', name: 'North yard' } });
    expect(withHomeTerminal({ homeTerminal: { address: 'Tulsa, OK' } }, DALLAS)).toEqual({ homeTerminal: { address: 'Tulsa, OK' } });
    expect(withHomeTerminal({ homeTerminal: { address: 'Tulsa, OK', name: 'Tulsa yard' } }, DALLAS)).toEqual({ homeTerminal: { address: 'Tulsa, OK', name: 'Tulsa yard' } });
    // A terminal set by coordinates (through the API) keeps them when only its name changes.
    expect(withHomeTerminal({ homeTerminal: { name: 'Houston yard' } }, POINT)).toEqual({ homeTerminal: { latitude: 29.76, longitude: -95.37, name: 'Houston yard' } });
  });

  it('a cleared place removes the terminal; a name without any place is sent for the API to refuse', () => {
    expect(withHomeTerminal({ homeTerminal: { address: null } }, DALLAS)).toEqual({ homeTerminal: null });
    expect(withHomeTerminal({ homeTerminal: { address: null, name: null } }, DALLAS)).toEqual({ homeTerminal: null });
    expect(withHomeTerminal({ homeTerminal: { name: 'Yard' } })).toEqual({ homeTerminal: { name: 'Yard' } });
  });

  it('reads as words on the driver’s page, the last known location in the zone where it was', () => {
    expect(homeTerminalText(DALLAS)).toBe('Dallas yard (Dallas, TX)');
    expect(homeTerminalText({ ...DALLAS, name: 'Dallas, TX' })).toBe('Dallas, TX');
    expect(homeTerminalText(POINT)).toBe('near Houston, TX');
    expect(homeTerminalText(null)).toBe('None');
    expect(
      knownLocationText({ latitude: 32.75, longitude: -97.33, name: 'near Fort Worth, TX', recordedAt: '2026-03-03T20:05:00Z', timeZone: 'America/Chicago', source: 'LOCATION_REPORT', routeId: null }),
    ).toBe('near Fort Worth, TX · Tue, Mar 3, 14:05 CST · last reported location');
    expect(knownLocationText(null)).toBe('Unknown');
  });
});
