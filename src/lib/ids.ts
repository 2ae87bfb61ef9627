import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes from the CSPRNG, filled 4 KiB at a time and each byte used once (as Node's own randomUUID
 * caches its random data): one call into OpenSSL per ~100 identifiers instead of one each (1 % of a plan's
 * CPU in a profile, issue 28).
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** Uniformly random base62 string (rejection sampling keeps the distribution even). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export const ID_PREFIXES = {
  tenant: 'tnt',
  user: 'usr',
  invitation: 'inv',
  apiKey: 'key',
  driver: 'drv',
  vehicle: 'veh',
  load: 'ld',
  route: 'rte',
  alert: 'alt',
  integration: 'int',
  webhook: 'wh',
  event: 'evt',
  delivery: 'dlv',
  refreshToken: 'rtk',
  dutyStatus: 'dst',
  location: 'loc',
  position: 'pos',
  alertNote: 'note',
  attempt: 'att',
  logEdit: 'edt',
  certification: 'crt',
  unassignedDriving: 'udr',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Identifiers are a type prefix plus 22 random base62 characters (~131 bits): never sequential. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(22)}`;
}

const TENANT_ID = /^tnt_[0-9A-Za-z]{22}$/;
export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}
