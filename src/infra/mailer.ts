import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { randomBase62 } from '../lib/ids.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file to the outbox and logged.
 * nodemailer is loaded with the first message, not at start: most processes never send one (workers,
 * api processes between sign-ups), and its modules are ~2 MiB of heap.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; log: Logger }): Mailer {
  let transporter: Promise<Transporter> | undefined;
  const transportOf = (options: Parameters<typeof import('nodemailer').createTransport>[0]) =>
    (transporter ??= import('nodemailer').then(
      (m) => m.default.createTransport(options),
      (err: unknown) => {
        transporter = undefined; // tried again with the next message
        throw err;
      },
    ));
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    return {
      async send(mail) {
        const transport = await transportOf(smtpUrl);
        await transport.sendMail({ from: opts.from, ...mail });
        opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  return {
    async send(mail) {
      const transport = await transportOf({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail({ from: opts.from, ...mail });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBase62(6)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      opts.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox');
    },
  };
}

/** Collects mail in memory: for tests. */
export class MemoryMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}
