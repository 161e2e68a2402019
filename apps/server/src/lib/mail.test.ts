import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { smtpSink } from '../../test/smtp-sink.js';
import { createMailer, senderAddress, senderOf } from './mail.js';
import { LocalFileStore } from './storage/local-store.js';

const noFiles = new LocalFileStore('/nonexistent');

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe('createMailer', () => {
  it('delivers through SMTP_URL when set', async () => {
    const sink = await smtpSink();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
      from: 'Herald <no-reply@herald.test>',
      files: noFiles,
      log: () => {},
    });
    await mailer.send({ to: 'asha@example.com', subject: 'Hello there', text: 'Body line' });
    await sink.close();
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toContain('Subject: Hello there');
    expect(sink.messages[0]).toContain('To: asha@example.com');
    expect(sink.messages[0]).toContain('From: Herald <no-reply@herald.test>');
  });

  it("puts the mail's sender name before MAIL_FROM's address", async () => {
    const sink = await smtpSink();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
      from: 'Herald <no-reply@herald.test>',
      files: noFiles,
      log: () => {},
    });
    await mailer.send({ to: 'a@example.com', subject: 'S', text: 'B', fromName: 'Acme Ltd' });
    await sink.close();
    expect(sink.messages[0]).toContain('From: Acme Ltd <no-reply@herald.test>');
    expect(sink.messages[0]).not.toContain('Herald');
  });

  it('reads the address of MAIL_FROM with or without a display name', () => {
    expect(senderAddress('Herald <no-reply@herald.test>')).toBe('no-reply@herald.test');
    expect(senderAddress('ops@example.com')).toBe('ops@example.com');
    expect(senderOf('ops@example.com', undefined)).toBe('ops@example.com');
    expect(senderOf('"A, B" <x@y.z>', 'Acme')).toEqual({ name: 'Acme', address: 'x@y.z' });
  });

  it("writes .eml files to the file storage's outbox without SMTP_URL, and logs where and the subject", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-outbox-'));
    dirs.push(dir);
    const logs: string[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Herald <no-reply@herald.test>',
      files: new LocalFileStore(dir),
      log: (m) => logs.push(m),
    });
    await mailer.send({ to: 'ravi@example.com', subject: 'Your code', text: 'code 123456' });
    const files = await fs.readdir(path.join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await fs.readFile(path.join(dir, 'outbox', files[0]!), 'utf8');
    expect(eml).toContain('To: ravi@example.com');
    expect(eml).toContain('code 123456');
    expect(logs.join('\n')).toContain('Your code');
    expect(logs.join('\n')).toContain(path.join(dir, 'outbox', files[0]!));
  });
});
