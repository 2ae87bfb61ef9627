import { describe, expect, it } from 'vitest';
import { readConnectForm } from './integrations';

const fields = [
  { key: 'apiKey', required: true },
  { key: 'accountId', required: false },
];
const form = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('the integration connect form', () => {
  it('reads the name, interval and filled config fields', () => {
    expect(readConnectForm(fields, form({ name: ' Samsara ', interval: '15', 'config.apiKey': ' k-1 ', 'config.accountId': '' }))).toEqual({
      name: 'Samsara',
      interval: '15',
      config: { apiKey: 'k-1' },
      errors: {},
    });
  });

  it('asks for a name, whole minutes and each required field', () => {
    const { errors } = readConnectForm(fields, form({ name: '  ', interval: '1.5' }));
    expect(errors).toEqual({ name: 'Give the integration a name.', syncIntervalMinutes: 'Enter whole minutes.', 'config.apiKey': 'Required.' });
    expect(readConnectForm([], form({ name: 'Weather' })).errors).toEqual({});
  });
});
