import { describe, expect, it } from 'vitest';
import { webhookFormErrors, withEventErrors } from './webhook-form';

describe('the webhook form', () => {
  it('asks for a URL and at least one event before sending', () => {
    expect(webhookFormErrors('https://example.com/h', ['alert.created'])).toEqual({});
    expect(webhookFormErrors('', [])).toEqual({ url: 'Enter the URL that receives the events.', events: 'Choose at least one event, or all events.' });
    expect(Object.keys(webhookFormErrors('https://example.com/h', []))).toEqual(['events']);
  });

  it('shows an error on one event on the events group, keeping an error the group already has', () => {
    expect(withEventErrors({ url: 'Bad URL.', 'events.1': 'Unknown event.', 'events.2': 'Also unknown.' })).toEqual({ url: 'Bad URL.', 'events.1': 'Unknown event.', 'events.2': 'Also unknown.', events: 'Unknown event.' });
    expect(withEventErrors({ events: 'Too many.', 'events.0': 'Unknown event.' }).events).toBe('Too many.');
    expect(withEventErrors({})).toEqual({});
  });
});
