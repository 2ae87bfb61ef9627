import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export interface Secrets {
  jwtSecret: Uint8Array;
  encryptionKey: Buffer;
}

/**
 * Production requires JWT_SECRET and ENCRYPTION_KEY (config enforces it). In development the
 * secrets are generated once and kept in DATA_DIR so that tokens survive a restart; with an
 * in-memory database they live only as long as the process.
 */
export function loadSecrets(config: Config): Secrets {
  let jwt = config.jwtSecret;
  let enc = config.encryptionKey;
  if (jwt === undefined || enc === undefined) {
    const persisted = config.databaseUrl === undefined ? readOrCreate(path.join(config.dataDir, 'secrets.json')) : generate();
    jwt ??= persisted.jwtSecret;
    enc ??= persisted.encryptionKey;
  }
  return { jwtSecret: new TextEncoder().encode(jwt), encryptionKey: Buffer.from(enc, 'base64') };
}

function generate(): { jwtSecret: string; encryptionKey: string } {
  return { jwtSecret: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('base64') };
}

function readOrCreate(file: string): { jwtSecret: string; encryptionKey: string } {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { jwtSecret: string; encryptionKey: string };
  } catch {
    const s = generate();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(s), { mode: 0o600 });
    return s;
  }
}
