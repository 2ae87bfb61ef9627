import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { createApiKey, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import type { HostResolver } from '../../infra/webhook-http.js';

/** A fake DNS whose answer for rebind.example.test changes after the first lookup (DNS rebinding). */
function fakeDns(): HostResolver {
  let rebinds = 0;
  return async (host) => {
    if (host === 'hooks.example.com') return [{ address: '93.184.216.34', family: 4 }];
    if (host === 'internal.example.test') return [{ address: '10.0.0.5', family: 4 }];
    if (host === 'rebind.example.test') return [{ address: rebinds++ === 0 ? '93.184.216.35' : '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
  };
}

describe.each(DB_KINDS)('webhooks API (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let rival: TenantFixture;

  beforeAll(async () => {
    t = await buildTestApp(kind, { webhookResolver: fakeDns() });
    acme = await createTenant(t.app, { name: 'Hooked Freight' });
    rival = await createTenant(t.app, { name: 'Rival Haulage' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const create = (payload: unknown, tenant = acme) => call('POST', '/api/v1/webhooks', tenant.auth, payload);

  it('registers a webhook with a generated secret, returned on create only', async () => {
    const res = await create({ url: 'https://hooks.example.com/fleet', events: ['alert.created', 'route.activated'], description: '  Dispatch board  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Za-z]{22}$/),
      url: 'https://hooks.example.com/fleet',
      events: ['alert.created', 'route.activated'],
      status: 'ACTIVE',
      description: 'Dispatch board',
      disabledReason: null,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

    const id = body.id as string;
    const secret = body.secret as string;
    const views = [
      await call('GET', `/api/v1/webhooks/${id}`, acme.auth),
      await call('GET', '/api/v1/webhooks', acme.auth),
      await call('PUT', `/api/v1/webhooks/${id}`, acme.auth, { description: 'Board' }),
    ];
    for (const v of views) {
      expect(v.statusCode).toBe(200);
      expect(v.body).not.toContain(secret);
      expect(v.body).not.toContain('"secret"');
    }
    // At rest: sealed, not the secret itself.
    const { rows } = await t.db.system((tx) => tx.query<Record<string, unknown>>('SELECT * FROM webhooks WHERE id = $1', [id]));
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    expect(JSON.stringify(rows[0])).not.toContain(secret.slice(6));
    expect(String(rows[0]!.secret_ciphertext)).toMatch(/^v1\./);
  });

  it('accepts a given secret and never returns it', async () => {
    const res = await create({ url: 'https://93.184.216.34/hook', events: ['*'], secret: 'my-own-signing-secret-123' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('secret');
    expect(res.body).not.toContain('my-own-signing-secret-123');
    expect(res.json()).toMatchObject({ events: ['*'], description: null });
  });

  it.each([
    ['a plain secret starting with whsec_', 'whsec_my-own-plain-secret-123'],
    ['a whsec_ secret that is not base64', 'whsec_not*base64*at*all!!'],
    ['a whsec_ secret of base64 too short to be a Standard Webhooks key', `whsec_${Buffer.alloc(12, 1).toString('base64')}`],
    ['a whsec_ secret of valid base64', `whsec_${Buffer.alloc(32, 1).toString('base64')}`],
    ['16 printable characters, the shortest', '!"#$%&\'()*+,-./0'],
    ['256 characters, the longest', `whsec_${'~'.repeat(250)}`],
  ])('accepts any secret the client chose: %s (201, never echoed; rotation takes it too)', async (_name, secret) => {
    const res = await create({ url: 'https://hooks.example.com/own', events: ['*'], secret });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).not.toHaveProperty('secret');
    expect(res.body).not.toContain(secret);
    const rotated = await call('POST', `/api/v1/webhooks/${res.json().id as string}/rotate-secret`, acme.auth, { secret });
    expect(rotated.statusCode, rotated.body).toBe(200);
  });

  it.each([
    ['no url', { events: ['*'] }, 'body.url'],
    ['no events', { url: 'https://hooks.example.com/' }, 'body.events'],
    ['empty events', { url: 'https://hooks.example.com/', events: [] }, 'body.events'],
    ['an unknown event', { url: 'https://hooks.example.com/', events: ['alert.created', 'alert.exploded'] }, 'body.events'],
    ['a repeated event', { url: 'https://hooks.example.com/', events: ['alert.created', 'alert.created'] }, 'body.events'],
    ['http', { url: 'http://hooks.example.com/', events: ['*'] }, 'body.url'],
    ['a private address', { url: 'https://192.168.1.20/', events: ['*'] }, 'body.url'],
    ['the metadata address in decimal', { url: 'https://2852039166/', events: ['*'] }, 'body.url'],
    ['a name resolving to a private address', { url: 'https://internal.example.test/', events: ['*'] }, 'body.url'],
    ['a name that does not resolve', { url: 'https://nowhere.example.test/', events: ['*'] }, 'body.url'],
    ['localhost', { url: 'https://localhost:8443/', events: ['*'] }, 'body.url'],
    ['a short secret', { url: 'https://hooks.example.com/', events: ['*'], secret: 'short' }, 'body.secret'],
    ['a secret with a space', { url: 'https://hooks.example.com/', events: ['*'], secret: 'whsec_with a space in it' }, 'body.secret'],
    ['a secret over 256 characters', { url: 'https://hooks.example.com/', events: ['*'], secret: `whsec_${'x'.repeat(251)}` }, 'body.secret'],
    ['an unknown property', { url: 'https://hooks.example.com/', events: ['*'], retries: 3 }, 'body.retries'],
  ])('refuses %s (400)', async (_name, payload, field) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
    expect(res.json().details.map((d: { field: string }) => d.field.replace(/\.\d+$/, ''))).toContain(field);
  });

  it('a local receiver is refused with the name of the setting that allows it in development', async () => {
    for (const url of ['http://127.0.0.1:4000/hook', 'https://localhost:8443/', 'https://192.168.1.20/']) {
      const res = await create({ url, events: ['*'] });
      expect(res.statusCode, url).toBe(400);
      const detail = (res.json().details as { field: string; message: string }[]).find((d) => d.field === 'body.url');
      expect(detail?.message, url).toMatch(/^must (use https|not point at .*)\. A receiver on your own machine .* started with WEBHOOK_ALLOW_INSECURE_TARGETS=true \(development and tests only\)$/);
    }
  });

  it('lists, updates, and disables on DELETE (then GET shows it disabled)', async () => {
    const other = await createTenant(t.app, { name: 'List Only Co' });
    const a = (await create({ url: 'https://hooks.example.com/a', events: ['alert.created'] }, other)).json();
    const b = (await create({ url: 'https://hooks.example.com/b', events: ['*'] }, other)).json();
    const list = await call('GET', '/api/v1/webhooks', other.auth);
    expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(list.json().data.map((w: { id: string }) => w.id).sort()).toEqual([a.id, b.id].sort());

    const put = await call('PUT', `/api/v1/webhooks/${a.id}`, other.auth, { events: ['alert.resolved', 'route.completed'], url: 'https://hooks.example.com/a2', description: null });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ events: ['alert.resolved', 'route.completed'], url: 'https://hooks.example.com/a2', description: null });
    expect((await call('PUT', `/api/v1/webhooks/${a.id}`, other.auth, { url: 'https://10.0.0.1/' })).statusCode).toBe(400);
    expect((await call('PUT', `/api/v1/webhooks/${a.id}`, other.auth, { events: ['nope'] })).statusCode).toBe(400);
    expect((await call('PUT', `/api/v1/webhooks/${a.id}`, other.auth, {})).statusCode).toBe(400);

    const del = await call('DELETE', `/api/v1/webhooks/${a.id}`, other.auth);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ id: a.id, status: 'DISABLED', disabledReason: expect.stringContaining('Deleted') });
    const got = await call('GET', `/api/v1/webhooks/${a.id}`, other.auth);
    expect(got.json()).toMatchObject({ status: 'DISABLED' });
    expect((await call('DELETE', `/api/v1/webhooks/${a.id}`, other.auth)).json()).toMatchObject({ status: 'DISABLED' });

    const again = await call('PUT', `/api/v1/webhooks/${a.id}`, other.auth, { status: 'ACTIVE' });
    expect(again.json()).toMatchObject({ status: 'ACTIVE', disabledReason: null });
  });

  it("answers another tenant's webhook and deliveries with 404, on every route", async () => {
    const mine = (await create({ url: 'https://hooks.example.com/iso', events: ['*'] })).json();
    const id = mine.id as string;
    for (const [method, url, payload] of [
      ['GET', `/api/v1/webhooks/${id}`],
      ['PUT', `/api/v1/webhooks/${id}`, { description: 'taken' }],
      ['DELETE', `/api/v1/webhooks/${id}`],
      ['POST', `/api/v1/webhooks/${id}/test`],
      ['POST', `/api/v1/webhooks/${id}/rotate-secret`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await call(method, url, rival.auth, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Webhook not found' });
    }
    const list = (await call('GET', '/api/v1/webhooks', rival.auth)).json();
    expect(list.data.map((w: { id: string }) => w.id)).not.toContain(id);
    // Untouched by the attempts.
    expect((await call('GET', `/api/v1/webhooks/${id}`, acme.auth)).json()).toMatchObject({ status: 'ACTIVE', description: null });
    expect((await call('GET', '/api/v1/webhooks/wh_doesnotexist000000000000', acme.auth)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/webhooks/drv_wrongprefix', acme.auth)).statusCode).toBe(400);
  });

  it('rotates the secret: the new one is returned once, with when the old one stops signing', async () => {
    const w = (await create({ url: 'https://hooks.example.com/rot', events: ['*'] })).json();
    const res = await call('POST', `/api/v1/webhooks/${w.id}/rotate-secret`, acme.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: w.id,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: new Date(t.clock.now().getTime() + 24 * 3_600_000).toISOString(),
    });
    expect(res.json().secret).not.toBe(w.secret);
    const got = await call('GET', `/api/v1/webhooks/${w.id}`, acme.auth);
    expect(got.body).not.toContain(res.json().secret);
    const given = await call('POST', `/api/v1/webhooks/${w.id}/rotate-secret`, acme.auth, { secret: 'x' });
    expect(given.statusCode).toBe(400);
  });

  it('webhooks:write is for OWNER and ADMIN; DISPATCHER reads; API keys work', async () => {
    const dispatcher = await createUser(t.app, t.mailer, acme, 'DISPATCHER');
    expect((await call('POST', '/api/v1/webhooks', dispatcher.auth, { url: 'https://hooks.example.com/d', events: ['*'] })).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/webhooks', dispatcher.auth)).statusCode).toBe(200);
    const key = await createApiKey(t.app, acme);
    const viaKey = await call('POST', '/api/v1/webhooks', { 'x-api-key': key.key }, { url: 'https://hooks.example.com/k', events: ['load.status_changed'] });
    expect(viaKey.statusCode).toBe(201);
    expect((await call('GET', '/api/v1/webhooks', {})).statusCode).toBe(401);
  });

  it('test ping: a name that now resolves inside is refused at delivery time (DNS rebinding), recorded as a failed attempt', async () => {
    const w = (await create({ url: 'https://rebind.example.test/hook', events: ['*'] })).json();
    expect(w.status).toBe('ACTIVE');
    const res = await call('POST', `/api/v1/webhooks/${w.id}/test`, acme.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: expect.stringMatching(/^dlv_/),
      webhookId: w.id,
      event: 'ping',
      status: 'FAILED',
      attemptCount: 1,
      nextAttemptAt: null,
      lastStatusCode: null,
      attempts: [{ attempt: 1, statusCode: null, error: expect.stringMatching(/target refused: .*loopback address \(127\.0\.0\.1\)/) }],
    });
    const log = await call('GET', `/api/v1/webhooks/${w.id}/deliveries`, acme.auth);
    expect(log.json()).toMatchObject({ total: 1, data: [{ id: res.json().id, status: 'FAILED' }] });
    // A FAILED delivery can be retried; one that is PENDING cannot.
    const retried = await call('POST', `/api/v1/webhooks/deliveries/${res.json().id}/retry`, acme.auth);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'PENDING', nextAttemptAt: t.clock.now().toISOString() });
    const twice = await call('POST', `/api/v1/webhooks/deliveries/${res.json().id}/retry`, acme.auth);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/Only a FAILED delivery can be retried; this one is PENDING/);
    expect((await call('POST', `/api/v1/webhooks/deliveries/${res.json().id}/retry`, rival.auth)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/webhooks/deliveries/${res.json().id}`, rival.auth)).statusCode).toBe(404);
  });
});
