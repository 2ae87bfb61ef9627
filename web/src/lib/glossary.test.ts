import { describe, expect, it } from 'vitest';
import { ago, clockSourceText, GLOSSARY, label, placePhrase } from './glossary';

describe('glossary', () => {
  it('says a code in words, an unknown one humanized, nothing as a dash', () => {
    expect(label('restKind', 'FULL_REST')).toBe('10-hour rest');
    expect(label('recommendedAction', 'PLAN_REST_STOP')).toBe('Plan a rest stop');
    expect(label('ruleSet', 'US_PROPERTY_70_8')).toBe('US property-carrying, 70 hours / 8 days');
    expect(label('vendor', 'samsara')).toBe('Samsara');
    expect(label('alertType', 'SOME_NEW_TYPE')).toBe('Some new type');
    expect(label('priority', null)).toBe('—');
  });

  it('no label is itself a code', () => {
    for (const [kind, entries] of Object.entries(GLOSSARY)) {
      for (const [code, words] of Object.entries(entries)) expect(words, `${kind}.${code}`).not.toMatch(/\b[A-Z]{2,}_[A-Z_]+\b/);
    }
  });

  it('names where the clocks come from and how old they are', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(clockSourceText({ kind: 'ELD', name: 'Samsara', syncedAt: '2026-11-29T11:59:32Z' }, now)).toBe('from Samsara, 28 seconds ago');
    expect(clockSourceText({ kind: 'LOG', name: 'the duty-status log', syncedAt: null }, now)).toBe('from the duty-status log');
    expect(ago(now - 61_000, now)).toBe('1 minute ago');
    expect(ago(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(ago(now + 5_000, now)).toBe('just now');
  });

  it('puts a place after a word of place once: never "near near"', () => {
    expect(placePhrase('Dallas, TX')).toBe('at Dallas, TX');
    expect(placePhrase('near Thousand Palms, CA', 'near')).toBe('near Thousand Palms, CA');
    expect(placePhrase('Near Portales, NM')).toBe('near Portales, NM');
    expect(placePhrase('Chicago, IL', 'near')).toBe('near Chicago, IL');
  });
});
