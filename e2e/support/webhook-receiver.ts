import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call Herald made to the receiver: its path, the three Standard Webhooks headers, its body. */
export interface ReceivedCall {
  path: string;
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly calls: ReceivedCall[];
  close(): Promise<void>;
}

const header = (req: http.IncomingMessage, name: string) => String(req.headers[name] ?? '');

/**
 * A customer's webhook endpoint on loopback for the journeys: it keeps every call, raw, for the
 * test to verify, and answers `status(path)` (200 unless told otherwise).
 */
export function startWebhookReceiver(
  status: (path: string) => number = () => 200,
): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      calls.push({
        path,
        headers: {
          'webhook-id': header(req, 'webhook-id'),
          'webhook-timestamp': header(req, 'webhook-timestamp'),
          'webhook-signature': header(req, 'webhook-signature'),
        },
        body,
      });
      res.writeHead(status(path), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
