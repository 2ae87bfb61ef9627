/**
 * Secrets at rest: after the flows that handle secrets (registration, password login with its refresh
 * cookie, refresh rotation, API key creation, invitation acceptance, an integration's credentials), no plaintext password, API key,
 * refresh token, invitation token or access token appears anywhere in the database, in any encoding we
 * can think of; password hashes are argon2id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sha256Hex } from '../../src/lib/crypto.js';
import { ADMIN_PASSWORD, buildTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { adminAction, buildRegistration, invitationTokenFor } from '../helpers/factories.js';

const TEXT_TYPES = new Set(['text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED', 'bytea']);

function refreshCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'refresh_token');
  if (!cookie?.value) throw new Error(`no refresh cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie.value;
}

/** The forms a leaked secret could take in a column: as is, hex, base64, base64url. */
function encodings(secret: string): string[] {
  const b = Buffer.from(secret, 'utf8');
  return [secret, b.toString('hex'), b.toString('base64'), b.toString('base64url')];
}

describe.each(DB_KINDS)('secrets at rest (%s)', (kind) => {
  let t: TestApp;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const reg = buildRegistration({ password: 'owner-plaintext-Pa55word!' });
    const registered = await t.app.inject({ method: 'POST', url: '/api/v1/tenants/register', payload: reg });
    expect(registered.statusCode, registered.body).toBe(201);
    const tenantId = registered.json<{ tenant: { id: string } }>().tenant.id;
    await adminAction(t.app, tenantId, 'approve');
    secrets['owner password'] = reg.adminUser.password;
    secrets['platform admin password'] = ADMIN_PASSWORD;

    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: reg.adminUser.email, password: reg.adminUser.password } });
    expect(login.statusCode, login.body).toBe(200);
    const accessToken = login.json<{ accessToken: string }>().accessToken;
    const auth = { authorization: `Bearer ${accessToken}` };
    secrets['login refresh token'] = refreshCookie(login);
    secrets['owner access token'] = accessToken;

    const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { refresh_token: secrets['login refresh token'] } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    secrets['rotated refresh token'] = refreshCookie(refreshed);

    const key = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: auth, payload: { name: 'at rest' } });
    expect(key.statusCode, key.body).toBe(201);
    const apiKey = key.json<{ key: string; prefix: string }>();
    secrets['API key'] = apiKey.key;
    // The stored prefix is meant to be visible; the random part after it is not.
    secrets['API key (after its prefix)'] = apiKey.key.slice(apiKey.prefix.length);
    const used = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-api-key': apiKey.key } });
    expect(used.statusCode, used.body).toBe(200);

    const email = `invitee-${Date.now()}@example.test`;
    const inv = await t.app.inject({ method: 'POST', url: '/api/v1/user-invitations', headers: auth, payload: { email, role: 'DISPATCHER', firstName: 'Ivy', lastName: 'Invitee' } });
    expect(inv.statusCode, inv.body).toBe(201);
    secrets['invitation token'] = invitationTokenFor(t.mailer, email);
    secrets['invitee password'] = 'invitee-plaintext-Pa55word!';
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user-invitations/accept',
      payload: { token: secrets['invitation token'], password: secrets['invitee password'] },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    secrets['invitation refresh token'] = refreshCookie(accepted);
    secrets['invitee access token'] = accepted.json<{ accessToken: string }>().accessToken;

    secrets['integration credential'] = 'integration-plaintext-token-0042';
    const integration = await t.app.inject({ method: 'POST', url: '/api/v1/integrations', headers: auth, payload: { vendor: 'fake_eld', name: 'At rest', config: { apiToken: secrets['integration credential'] } } });
    expect(integration.statusCode, integration.body).toBe(201);

    for (const [label, value] of Object.entries(secrets)) expect(value.length, label).toBeGreaterThanOrEqual(8);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('no plaintext secret appears in any column of any table', async () => {
    const dump = await t.db.system(async (tx) => {
      const { rows: columns } = await tx.query<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT c.table_name, c.column_name, c.data_type
           FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          ORDER BY c.table_name, c.ordinal_position`,
      );
      const out: Array<{ where: string; value: string }> = [];
      const tables = [...new Set(columns.map((c) => c.table_name))];
      for (const table of tables) {
        // Every text-like column on its own, and the whole row as text (covers any other type).
        for (const col of columns.filter((c) => c.table_name === table && TEXT_TYPES.has(c.data_type))) {
          const { rows } = await tx.query<{ v: string | null }>(`SELECT "${col.column_name}"::text AS v FROM "${table}"`);
          for (const r of rows) if (r.v !== null) out.push({ where: `${table}.${col.column_name}`, value: r.v });
        }
        const { rows } = await tx.query<{ v: string }>(`SELECT x::text AS v FROM "${table}" x`);
        for (const r of rows) out.push({ where: `${table} (row)`, value: r.v });
      }
      return { tables, out };
    });

    expect(dump.tables).toEqual(expect.arrayContaining(['users', 'platform_admins', 'api_keys', 'refresh_tokens', 'user_invitations']));
    const rowsOf = (table: string) => dump.out.filter((d) => d.where === `${table} (row)`);
    expect(rowsOf('users')).toHaveLength(2);
    expect(rowsOf('api_keys')).toHaveLength(1);
    expect(rowsOf('user_invitations')).toHaveLength(1);
    expect(rowsOf('integrations')).toHaveLength(1);
    expect(rowsOf('refresh_tokens').length).toBeGreaterThanOrEqual(3);

    // Positive controls: the dump does read the columns (the hashes and the e-mail addresses are there).
    expect(dump.out).toContainEqual({ where: 'api_keys.key_hash', value: sha256Hex(secrets['API key']!) });
    expect(dump.out).toContainEqual({ where: 'refresh_tokens.token_hash', value: sha256Hex(secrets['rotated refresh token']!) });
    expect(dump.out).toContainEqual({ where: 'user_invitations.token_hash', value: sha256Hex(secrets['invitation token']!) });

    const leaks: string[] = [];
    for (const [label, secret] of Object.entries(secrets)) {
      for (const form of encodings(secret)) {
        for (const d of dump.out) if (d.value.includes(form)) leaks.push(`${label} found in ${d.where}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('password hashes are argon2id', async () => {
    const hashes = await t.db.system(async (tx) => {
      const users = await tx.query<{ password_hash: string | null }>('SELECT password_hash FROM users');
      const admins = await tx.query<{ password_hash: string }>('SELECT password_hash FROM platform_admins');
      return [...users.rows, ...admins.rows].map((r) => r.password_hash);
    });
    expect(hashes).toHaveLength(3);
    for (const h of hashes) expect(h).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });
});
