import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the simulator's tests share: a small webhook receiver standing in for the
 * app's route (records raw bodies and headers, answers the statuses it is told), a raw POST,
 * and polling a condition with a generous bound instead of sleeping.
 */

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export interface Receiver {
  url: string;
  received: ReceivedCallback[];
  /** Statuses to answer, in order; once used up, 200. */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedCallback[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answers.shift() ?? 200;
      if (status >= 200 && status < 300) {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      }
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function postJson(
  url: string,
  body: unknown,
  /** The simulator's secret, its bearer token. */
  token: string,
): Promise<{ status: number; body: { id?: string; error?: { code?: number; message: string } } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id?: string } };
}

/** Resolves once `check` holds; fails after `ms` (generous: the machine is shared). */
export async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
