import type { IntegrationAdapter } from '../../adapters/integrations/port.js';
import type { ErrorDetail } from '../../lib/errors.js';

/** The longest config value accepted (a token, a URL). */
export const MAX_CONFIG_VALUE_LENGTH = 4096;

/**
 * Checks a vendor config against its registry entry: every required field present as a non-empty
 * string, no key the vendor does not know, optional values scalar; then the adapter's own checks.
 * Problems name fields only, never values (a value may be a credential).
 */
export function configProblems(adapter: IntegrationAdapter, config: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const { requiredFields, optionalFields } = adapter.info;
  for (const field of requiredFields) {
    const v = config[field];
    if (v === undefined || v === null) problems.push({ field: `body.config.${field}`, message: 'is required' });
    else if (typeof v !== 'string' || v.trim() === '') problems.push({ field: `body.config.${field}`, message: 'must be a non-empty string' });
  }
  for (const [key, v] of Object.entries(config)) {
    const known = requiredFields.includes(key) || optionalFields.includes(key);
    if (!known) {
      problems.push({ field: `body.config.${key.slice(0, 64)}`, message: `is not a ${adapter.info.vendor} config field` });
      continue;
    }
    if (optionalFields.includes(key) && !requiredFields.includes(key) && !['string', 'number', 'boolean'].includes(typeof v)) {
      problems.push({ field: `body.config.${key}`, message: 'must be a string, number or boolean' });
    }
    if (typeof v === 'string' && v.length > MAX_CONFIG_VALUE_LENGTH) problems.push({ field: `body.config.${key}`, message: `must be at most ${MAX_CONFIG_VALUE_LENGTH} characters` });
  }
  if (problems.length > 0) return problems;
  return adapter.validateConfig(config).map((message) => ({ field: 'body.config', message }));
}

/**
 * The part of a config that may hold credentials: the vendor's `secretFields` when it declares them
 * (so an `environment: "sandbox"` is not redacted out of every message), else the whole config.
 */
export function secretsOf(adapter: IntegrationAdapter | undefined, config: Record<string, unknown>): Record<string, unknown> {
  const fields = adapter?.info.secretFields;
  if (!fields) return config;
  return Object.fromEntries(Object.entries(config).filter(([k]) => fields.includes(k)));
}

/**
 * Replaces every credential-like value of the config (strings of 4+ characters) found in `text`: a
 * second line of defence when a vendor echoes a credential in an error or a detail.
 */
export function scrub(text: string, config: Record<string, unknown>): string {
  let out = text;
  for (const v of Object.values(config)) {
    if (typeof v === 'string' && v.length >= 4) out = out.split(v).join('[redacted]');
  }
  return out;
}

/** `scrub` over every string inside a JSON-like value. */
export function scrubDeep<T>(value: T, config: Record<string, unknown>): T {
  if (typeof value === 'string') return scrub(value, config) as T;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, config)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, config)])) as T;
  }
  return value;
}
