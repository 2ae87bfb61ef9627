import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../lib/errors.js';
import { registerErrorHandling } from './errors.js';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { MemoryMailer } from '../infra/mailer.js';

describe('error handling', () => {
  const logs: string[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (l: string) => logs.push(l) } } });
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  app.get('/domain', async () => {
    throw new DomainError('INVALID_STATE', 'Driver is already INACTIVE');
  });

  it('answers a 500 with the error body and a request id, never the message or stack, and logs it', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error', requestId: expect.any(String) });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('at ');
    const logged = logs.map((l) => JSON.parse(l) as { reqId?: string; level: number; err?: { message: string } }).find((l) => l.level === 50);
    expect(logged?.reqId).toBe(body.requestId);
    expect(logged?.err?.message).toContain('hunter2');
  });

  it('maps domain errors to their status with the spec body', async () => {
    const res = await app.inject({ method: 'GET', url: '/domain' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Driver is already INACTIVE' });
  });
});

describe('log redaction', () => {
  let app: App;
  const lines: string[] = [];
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'memory://', LOG_LEVEL: 'info', JWT_SECRET: 'j'.repeat(40), ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') });
    const db = await openDatabase({ url: 'memory://' });
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    app = await buildApp({ config, db, mailer: new MemoryMailer(), logStream: stream });
    app.addHook('onClose', () => db.close());
  });
  afterAll(async () => app?.close());

  it('keeps credentials out of the logs', async () => {
    await app.inject({ method: 'GET', url: '/api/v1/drivers?apiKey=sk_staging_SECRETSECRETSECRETSECRETSECRET12', headers: { authorization: 'Bearer eyJSECRETTOKEN', 'x-api-key': 'sk_staging_ANOTHERSECRETANOTHERSECRETANOTHE' } });
    await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@b.test', password: 'my-plaintext-password' } });
    const all = lines.join('\n');
    expect(all).toContain('"url":"/api/v1/drivers?apiKey=[redacted]"');
    for (const secret of ['SECRETSECRET', 'eyJSECRETTOKEN', 'ANOTHERSECRET', 'my-plaintext-password']) expect(all).not.toContain(secret);
  });
});
