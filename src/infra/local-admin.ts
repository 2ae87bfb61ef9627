import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * A development instance that names no platform administrator (PLATFORM_ADMIN_EMAIL / _PASSWORD) still
 * needs one: every new organization waits for approval, and without an administrator `npm start` followed
 * by "register an organization" would lead nowhere. Such an instance gets a local administrator whose
 * password is generated once and kept in DATA_DIR (like the development secrets); the start-up log prints
 * it when it is made. Never in production (NODE_ENV=production), nor in tests (NODE_ENV=test).
 */
export const LOCAL_ADMIN_EMAIL = 'admin@fleet.localhost';
const LOCAL_ADMIN_FILE = 'platform-admin.json';

export interface LocalAdmin {
  email: string;
  password: string;
  /** Where the credentials are kept. */
  file: string;
  /** Made just now (the start-up log prints the password this once). */
  created: boolean;
}

export function usesLocalAdmin(config: Pick<Config, 'env' | 'platformAdmin'>): boolean {
  return config.env === 'development' && config.platformAdmin === undefined;
}

/** The local administrator's credentials: read from DATA_DIR, or generated and written there (0600). */
export function localAdmin(dataDir: string): LocalAdmin {
  const file = path.join(dataDir, LOCAL_ADMIN_FILE);
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LocalAdmin>;
    if (typeof kept.email === 'string' && typeof kept.password === 'string' && kept.password.length >= 12) {
      return { email: kept.email, password: kept.password, file, created: false };
    }
  } catch {
    // Missing or unreadable: made again below.
  }
  const made = { email: LOCAL_ADMIN_EMAIL, password: randomBytes(18).toString('base64url') };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  return { ...made, file, created: true };
}

/** A path as a person at the terminal would type it: relative to where the service was started, when inside it. */
function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `./${rel}` : file;
}

/**
 * How an organization pending approval gets approved on this instance, for the people waiting (the
 * registration answer, the 403 of a pending tenant, the dashboard's pending page). On a development
 * instance only: a production instance's administrators are its operators', and nobody registering needs
 * to know who they are. It never holds a password.
 */
export function approvalHint(config: Pick<Config, 'env' | 'platformAdmin' | 'dataDir'>): string | undefined {
  if (config.env !== 'development') return undefined;
  if (usesLocalAdmin(config)) {
    return (
      `On this development instance the local platform administrator approves it: sign in as ${LOCAL_ADMIN_EMAIL} with the password ` +
      `that the service printed when it first started (kept in ${shown(path.join(config.dataDir, LOCAL_ADMIN_FILE))}), open Organizations and choose Approve.`
    );
  }
  if (config.platformAdmin) {
    return `On this development instance the platform administrator (PLATFORM_ADMIN_EMAIL, ${config.platformAdmin.email}) approves it: sign in as them, open Organizations and choose Approve.`;
  }
  return undefined;
}
