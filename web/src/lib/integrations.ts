/** The integration connect form read and checked before it is sent. Pure; tested in integrations.test.ts. */

export interface ConnectFormInput {
  name: string;
  /** Minutes as typed ('' for the vendor's default). */
  interval: string;
  config: Record<string, string>;
  /** Field name → what is wrong ("name", "syncIntervalMinutes", "config.<key>"). */
  errors: Record<string, string>;
}

/**
 * The connect form's values (`value(name)` reads one input): a name, whole minutes if an interval is
 * given, and each required config field; empty optional fields are left out of the config.
 */
export function readConnectForm(fields: ReadonlyArray<{ key: string; required: boolean }>, value: (name: string) => string): ConnectFormInput {
  const name = value('name').trim();
  const interval = value('interval').trim();
  const config: Record<string, string> = {};
  const errors: Record<string, string> = {};
  if (!name) errors.name = 'Give the integration a name.';
  if (interval && !/^\d+$/.test(interval)) errors.syncIntervalMinutes = 'Enter whole minutes.';
  for (const f of fields) {
    const v = value(`config.${f.key}`).trim();
    if (v) config[f.key] = v;
    else if (f.required) errors[`config.${f.key}`] = 'Required.';
  }
  return { name, interval, config, errors };
}
