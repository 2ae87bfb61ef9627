/** The webhook form's checks before it is sent, and the API's field errors placed on its fields. Pure; tested in webhook-form.test.ts. */

/** What is missing before a webhook can be saved: a URL, and at least one event. */
export function webhookFormErrors(url: string, events: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!url) errors.url = 'Enter the URL that receives the events.';
  if (events.length === 0) errors.events = 'Choose at least one event, or all events.';
  return errors;
}

/** The API's field errors with "events.0" and the like also shown on the events group (the first of them). */
export function withEventErrors(byField: Record<string, string>): Record<string, string> {
  const out = { ...byField };
  for (const k of Object.keys(byField)) if (k.startsWith('events.')) out.events ??= byField[k]!;
  return out;
}
