import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { approvalHint, LOCAL_ADMIN_EMAIL, localAdmin, usesLocalAdmin } from '../../infra/local-admin.js';

const REGISTRATION = {
  organization: { name: 'Fresh Clone Freight', address: '1 Main St, Dallas TX', phone: '+1 214 555 0100', contactEmail: 'ops@fresh.test' },
  adminUser: { firstName: 'Nora', lastName: 'New', email: 'nora@fresh.test', password: 'password123' },
};

describe('the local platform administrator of a development instance', () => {
  it('is made once in DATA_DIR (0600) and read back on the next start; only in development without PLATFORM_ADMIN_*', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-admin-'));
    try {
      const first = localAdmin(dir);
      expect(first).toMatchObject({ email: LOCAL_ADMIN_EMAIL, created: true, file: path.join(dir, 'platform-admin.json') });
      expect(first.password.length).toBeGreaterThanOrEqual(20);
      expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
      const again = localAdmin(dir);
      expect(again).toEqual({ ...first, created: false });
      // A damaged file is made again rather than trusted.
      fs.writeFileSync(first.file, '{"email": "x@y.z", "password": "short"}');
      const remade = localAdmin(dir);
      expect(remade.created).toBe(true);
      expect(remade.password).not.toBe(first.password);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const admin = { email: 'root@example.com', password: 'a-long-password' };
    expect(usesLocalAdmin({ env: 'development', platformAdmin: undefined })).toBe(true);
    expect(usesLocalAdmin({ env: 'development', platformAdmin: admin })).toBe(false);
    expect(usesLocalAdmin({ env: 'production', platformAdmin: undefined })).toBe(false);
    expect(usesLocalAdmin({ env: 'test', platformAdmin: undefined })).toBe(false);
    expect(approvalHint({ env: 'production', platformAdmin: undefined, dataDir: '/srv/data' })).toBeUndefined();
    expect(approvalHint({ env: 'test', platformAdmin: admin, dataDir: '/srv/data' })).toBeUndefined();
    expect(approvalHint({ env: 'development', platformAdmin: undefined, dataDir: '/srv/data' })).toBe(
      `On this development instance the local platform administrator approves it: sign in as ${LOCAL_ADMIN_EMAIL} with the password that the service printed when it first started (kept in /srv/data/platform-admin.json), open Organizations and choose Approve.`,
    );
    expect(approvalHint({ env: 'development', platformAdmin: admin, dataDir: '/srv/data' })).toContain('(PLATFORM_ADMIN_EMAIL, root@example.com)');
  });
});

describe.each(DB_KINDS)('a development instance with no platform administrator configured (%s)', (kind) => {
  let t: TestApp;
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });

  beforeAll(async () => {
    t = await buildTestApp(kind, { env: { NODE_ENV: 'development', PLATFORM_ADMIN_EMAIL: '', PLATFORM_ADMIN_PASSWORD: '', LOG_LEVEL: 'info' }, logStream });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('prints the local administrator at start-up; a new organization is told how it gets approved, and that administrator approves it', async () => {
    const printed = logs.map((l) => JSON.parse(l) as { msg: string; email?: string }).find((l) => l.email === LOCAL_ADMIN_EMAIL);
    const password = /with the password (\S+) \(kept in /.exec(printed?.msg ?? '')?.[1];
    expect(printed?.msg, logs.join('')).toContain('No platform administrator is configured (PLATFORM_ADMIN_EMAIL, PLATFORM_ADMIN_PASSWORD)');
    expect(password).toBeDefined();

    const reg = await t.app.inject({ method: 'POST', url: '/api/v1/tenants/register', payload: REGISTRATION });
    expect(reg.statusCode, reg.body).toBe(201);
    expect(reg.json().message).toContain(`sign in as ${LOCAL_ADMIN_EMAIL}`);
    expect(reg.body).not.toContain(password);
    const tenantId = reg.json().tenant.id as string;

    const owner = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'nora@fresh.test', password: 'password123' } });
    const ownerAuth = { authorization: `Bearer ${owner.json().accessToken as string}` };
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/tenant', headers: ownerAuth });
    expect(profile.json()).toMatchObject({ status: 'PENDING_APPROVAL', approvalHint: expect.stringContaining('open Organizations and choose Approve') });
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: ownerAuth, payload: { firstName: 'A', lastName: 'B', licenseNumber: 'L1', licenseState: 'TX' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/is pending approval\. .*sign in as admin@fleet\.localhost/);

    const admin = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: LOCAL_ADMIN_EMAIL, password } });
    expect(admin.statusCode, admin.body).toBe(200);
    const approved = await t.app.inject({ method: 'POST', url: `/api/v1/admin/tenants/${tenantId}/approve`, headers: { authorization: `Bearer ${admin.json().accessToken as string}` } });
    expect(approved.json()).toMatchObject({ id: tenantId, status: 'ACTIVE' });

    const created = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: ownerAuth, payload: { firstName: 'A', lastName: 'B', licenseNumber: 'L1', licenseState: 'TX' } });
    expect(created.statusCode, created.body).toBe(201);
    const active = await t.app.inject({ method: 'GET', url: '/api/v1/tenant', headers: ownerAuth });
    expect(active.json()).not.toHaveProperty('approvalHint');
  });
});

describe('instances that make no local administrator', () => {
  it('a test instance with PLATFORM_ADMIN_* (and any non-development one) tells a pending organization nothing about its administrators', async () => {
    const t = await buildTestApp('pglite');
    try {
      const reg = await t.app.inject({ method: 'POST', url: '/api/v1/tenants/register', payload: REGISTRATION });
      expect(reg.json().message).not.toContain('development instance');
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: LOCAL_ADMIN_EMAIL, password: 'whatever-it-is-12' } });
      expect(login.statusCode).toBe(401);
      const { rows } = await t.db.system((tx) => tx.query<{ email: string }>('SELECT email FROM platform_admins'));
      expect(rows.map((r) => r.email)).not.toContain(LOCAL_ADMIN_EMAIL);
    } finally {
      await t.close();
    }
  });
});
