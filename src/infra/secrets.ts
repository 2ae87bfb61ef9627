import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
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

/**
 * A secret the service must use again (webhook signing secrets, integration credentials), encrypted
 * at rest with ENCRYPTION_KEY: AES-256-GCM, a fresh 96-bit nonce each time, `v1.<nonce>.<tag>.<ciphertext>`
 * in base64url. Opening fails loudly when the key is wrong or the text was altered.
 */
export function sealSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/**
 * ENCRYPTION_KEY as a KeyObject, made once per key: given raw bytes, each cipher spends ~25 µs checking
 * whether they are a KeyObject or a CryptoKey (thrown and caught errors on Node 24); a webhook worker opens
 * a signing secret for every delivery (bench/README.md, issue 28).
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();
function keyObjectOf(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (object === undefined) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
}

export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || ct === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
