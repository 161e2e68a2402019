import http from 'node:http';
import { z } from 'zod';
import { signBody } from './simulator-events.js';

/**
 * Messages people send back, as the simulator reports them (docs/delivery.md, The simulator):
 * `{ messages: [{ from, to, text, timestamp }] }`, POSTed to the same webhook as its status
 * events and signed the same way (x-herald-signature). The simulator server posts one when
 * asked on POST /v1/inbound, so tests and the browser journeys can reply STOP or START as a
 * person would.
 */

export const InboundBodySchema = z.object({
  messages: z
    .array(
      z.object({
        from: z.string().regex(/^\d{4,20}$/),
        to: z.string().max(64).nullable().optional(),
        text: z.string().max(4096),
        timestamp: z.iso.datetime({ offset: true }),
      }),
    )
    .max(100),
});
export type InboundBody = z.infer<typeof InboundBodySchema>;

/** Whether a webhook body carries inbound messages (it may carry status events beside them). */
export function hasInbound(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'messages' in body;
}

/** Whether a webhook body is inbound messages only (no status events to parse). */
export function isInboundOnly(body: unknown): boolean {
  return hasInbound(body) && !('events' in (body as object));
}

/** Posts one signed inbound body to the app's webhook; answers the app's HTTP status. */
export function postInbound(url: string, secret: string, body: InboundBody): Promise<number> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      timeout: 10_000,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'x-herald-signature': signBody(secret, text),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(text);
  });
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const REQUEST_LIMIT = 16 * 1024;

/**
 * POST /v1/inbound on the simulator server, from loopback only: `{ from, text, to? }` becomes
 * one signed inbound body posted to the app's webhook; answers 200 `{ status }` with the
 * webhook's HTTP status, 409 while no callback URL is set, 400 for a bad request.
 */
export function serveInbound(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: { url: string | undefined; secret: string },
): void {
  const answer = (status: number, body: object) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
    req.resume();
    return answer(403, { error: { code: 403, message: 'Loopback only' } });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= REQUEST_LIMIT) chunks.push(c);
  });
  req.on('end', () => {
    const parsed = RequestSchema.safeParse(parseJson(Buffer.concat(chunks)));
    if (size > REQUEST_LIMIT || !parsed.success) {
      return answer(400, { error: { code: 100, message: 'Invalid parameter' } });
    }
    if (!target.url) return answer(409, { error: { code: 409, message: 'No callback URL' } });
    const { from, text, to } = parsed.data;
    const message = { from, to: to ?? null, text, timestamp: new Date().toISOString() };
    postInbound(target.url, target.secret, { messages: [message] }).then(
      (status) => answer(200, { status }),
      (err: unknown) => answer(502, { error: { code: 502, message: String(err) } }),
    );
  });
}

const RequestSchema = z.object({
  from: z.string().regex(/^\d{4,20}$/),
  text: z.string().max(4096),
  to: z.string().max(64).optional(),
});

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
