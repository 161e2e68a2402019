import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from './mail.js';

/** A minimal SMTP sink: enough of RFC 5321 for nodemailer to deliver one message. */
function smtpSink(): Promise<{ port: number; messages: string[]; close: () => void }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    let message = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === '.') {
            data = false;
            messages.push(message);
            message = '';
            socket.write('250 queued\r\n');
          } else message += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250 sink\r\n');
        else if (cmd === 'DATA') {
          data = true;
          socket.write('354 go\r\n');
        } else if (cmd === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address() as net.AddressInfo;
      resolve({ port: addr.port, messages, close: () => server.close() });
    }),
  );
}

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
      outboxDir: '/nonexistent',
      log: () => {},
    });
    await mailer.send({ to: 'asha@example.com', subject: 'Hello there', text: 'Body line' });
    sink.close();
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toContain('Subject: Hello there');
    expect(sink.messages[0]).toContain('To: asha@example.com');
    expect(sink.messages[0]).toContain('From: Herald <no-reply@herald.test>');
  });

  it('writes .eml files to the outbox without SMTP_URL, and logs the subject', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-outbox-'));
    dirs.push(dir);
    const logs: string[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Herald <no-reply@herald.test>',
      outboxDir: path.join(dir, 'outbox'),
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
  });
});
