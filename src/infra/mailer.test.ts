import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

const log = pino({ level: 'silent' });

describe('mailer', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('writes each message as an .eml file to the outbox when SMTP is not configured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    dirs.push(dir);
    const mailer = createMailer({ from: 'Fleet <no-reply@example.test>', outboxDir: path.join(dir, 'outbox'), log });
    await mailer.send({ to: 'ann@example.test', subject: 'Welcome aboard', text: 'Accept: http://localhost:3000/accept-invitation?token=abc' });
    const files = fs.readdirSync(path.join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(dir, 'outbox', files[0]!), 'utf8');
    expect(eml).toMatch(/^To: ann@example\.test$/m);
    expect(eml).toMatch(/^Subject: Welcome aboard$/m);
    expect(eml).toMatch(/^From: Fleet <no-reply@example\.test>$/m);
    expect(eml).toContain('accept-invitation?token=abc');
  });

  it('delivers by SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'no-reply@example.test', outboxDir: '/nonexistent', log });
      await mailer.send({ to: 'bob@example.test', subject: 'Approved', text: 'Your organization is approved.' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^Subject: Approved/m);
      expect(received[0]).toContain('Your organization is approved.');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
