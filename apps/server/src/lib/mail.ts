import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { storageKey, type FileStore } from './storage/file-store.js';

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

/** Where mail goes without SMTP_URL: `.eml` objects in the file storage (DATA_DIR/outbox/). */
export const MAIL_FILES_FOLDER = 'outbox';

/**
 * The transport: SMTP when `SMTP_URL` is set; otherwise every mail becomes an `.eml` file in
 * the file storage's `outbox/` (DATA_DIR/outbox/ on the local driver), readable from every
 * instance, and where it went is logged (docs/operations.md, Settings). Modules never call it:
 * they queue mail in the outbox (jobs/mail-outbox.ts), whose `send-mail` job calls it.
 */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  files: FileStore;
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
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      const key = storageKey(MAIL_FILES_FOLDER, name);
      // The store writes it whole or not at all: a reader never sees half a mail.
      await opts.files.put(key, info.message as Buffer, { contentType: 'message/rfc822' });
      opts.log(`Mail to ${m.to} written to ${opts.files.where(key)}: ${m.subject}`);
    },
  };
}
