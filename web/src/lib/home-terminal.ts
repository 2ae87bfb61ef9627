/**
 * A driver's home terminal in the driver form (two fields: the place, and a name of its own) and on the
 * driver's page, with where they were last known to be. Pure; tested in home-terminal.test.ts.
 */
import type { Ok } from '../api/client';
import { startSourceLabel } from './dispatch';
import { inZone } from './local-time';

type Driver = Ok<'/api/v1/drivers/{driverId}'>;
export type HomeTerminal = NonNullable<Driver['homeTerminal']>;
export type KnownLocation = NonNullable<Driver['lastKnownLocation']>;
type Json = Record<string, unknown>;

/**
 * The request body with the home terminal as the API takes it. The form sends the fields it changed
 * (`homeTerminal.address`, `homeTerminal.name`); the API wants the whole terminal: an address (or the
 * coordinates it had) and a name. A new place without a new name takes the place's own name; a cleared
 * place removes the terminal (null).
 */
export function withHomeTerminal(body: Json, original?: HomeTerminal | null): Json {
  const part = body.homeTerminal as { address?: string | null; name?: string | null } | undefined;
  if (part === undefined) return body;
  const address = 'address' in part ? part.address : original?.address;
  const nameChanged = 'name' in part;
  const name = nameChanged ? part.name : 'address' in part ? undefined : original?.name;
  let homeTerminal: Json | null;
  if (address) homeTerminal = { address, ...(name ? { name } : {}) };
  else if (!('address' in part) && original) homeTerminal = { latitude: original.latitude, longitude: original.longitude, ...(name ? { name } : {}) };
  else if (name && !original) homeTerminal = { name }; // no place: the API says what is missing
  else homeTerminal = null;
  return { ...body, homeTerminal };
}

/** "Dallas yard (Dallas, TX)", or the place alone when it is the name. */
export function homeTerminalText(h: HomeTerminal | null | undefined): string {
  if (!h) return 'None';
  return h.address && h.address !== h.name ? `${h.name} (${h.address})` : h.name;
}

/** "near Fort Worth, TX · Tue, Mar 3, 14:05 CST · last reported location": where, when (in the zone there) and how it is known. */
export function knownLocationText(l: KnownLocation | null | undefined): string {
  if (!l) return 'Unknown';
  return `${l.name} · ${inZone(l.recordedAt, l.timeZone)} · ${startSourceLabel(l.source).toLowerCase()}`;
}
