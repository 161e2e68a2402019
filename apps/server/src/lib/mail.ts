import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * The sender's display name: the recipient's branding (docs/product.md, Branding). The address
   * stays MAIL_FROM's; unset, MAIL_FROM is used as it is.
   */
  fromName?: string | undefined;
}

/** MAIL_FROM's address: what is inside `<…>` when it has a display name, else all of it. */
export function senderAddress(from: string): string {
  const angled = /<([^<>]+)>\s*$/.exec(from);
  return (angled ? angled[1]! : from).trim();
}

/** The From header of one mail: MAIL_FROM, or its address under the mail's own sender name. */
export function senderOf(from: string, fromName: string | undefined) {
  return fromName ? { name: fromName, address: senderAddress(from) } : from;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The transport: SMTP when `SMTP_URL` is set; otherwise every mail becomes an `.eml` file in
 * `DATA_DIR/outbox/` and its subject is logged (docs/operations.md, Settings). Modules never call
 * it: they queue mail in the outbox (jobs/mail-outbox.ts), whose `send-mail` job calls it.
 */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: (msg: string) => void;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send({ fromName, ...m }) {
        await transport.sendMail({ from: senderOf(opts.from, fromName), ...m });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send({ fromName, ...m }) {
      const info = await transport.sendMail({ from: senderOf(opts.from, fromName), ...m });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      const file = path.join(opts.outboxDir, name);
      // Write then rename: a reader never sees half a mail.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.tmp`, file);
      opts.log(`Mail to ${m.to} written to ${file}: ${m.subject}`);
    },
  };
}
