import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the providers' fakes share (tests, and the benchmark's WhatsApp fake process): a real
 * HTTP server on 127.0.0.1, each request read whole and recorded before the fake answers it
 * (unless `record` is false: a long benchmark keeps no request).
 */

export interface FakeHttpOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** Keep every request in `requests` (the default); false keeps none. */
  record?: boolean;
}

export interface SeenRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type Handler = (req: SeenRequest) => Promise<FakeAnswer> | FakeAnswer;

export interface FakeAnswer {
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const json = (status: number, value: unknown, headers?: Record<string, string>) => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json',
  headers,
});

export class FakeHttp {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    /** Every request received, in order. */
    readonly requests: SeenRequest[],
  ) {}

  static async start(handler: Handler, o: FakeHttpOptions = {}): Promise<FakeHttp> {
    const seen: SeenRequest[] = [];
    const record = o.record ?? true;
    const server = createServer((req, res) => {
      void serve(req, res, (r) => {
        if (record) seen.push(r);
        return handler(r);
      });
    });
    await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new FakeHttp(server, `http://127.0.0.1:${port}`, seen);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A provider's fake: its own handler behind a FakeHttp that `listen` starts, with the address
 * and the recorded requests a test reads, and `close`.
 */
export abstract class ProviderFake {
  #http: FakeHttp | undefined;

  protected abstract handle(req: SeenRequest): Promise<FakeAnswer> | FakeAnswer;

  protected async listen(o?: FakeHttpOptions): Promise<this> {
    this.#http = await FakeHttp.start((req) => this.handle(req), o);
    return this;
  }

  private get http(): FakeHttp {
    if (!this.#http) throw new Error('The fake has not been started.');
    return this.#http;
  }

  get url(): string {
    return this.http.url;
  }

  get requests(): SeenRequest[] {
    return this.http.requests;
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handler: (seen: SeenRequest) => Promise<FakeAnswer> | FakeAnswer,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const seen = {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    body: Buffer.concat(chunks),
  };
  let answer: FakeAnswer;
  try {
    answer = await handler(seen);
  } catch (err) {
    answer = { status: 500, body: String(err) };
  }
  res.writeHead(answer.status, {
    'content-type': answer.contentType ?? 'text/plain',
    ...answer.headers,
  });
  res.end(answer.body);
}

/** Posts a callback the way a provider does; the answer's status, type and body. */
export async function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; contentType: string | null; text: string }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    text: await res.text(),
  };
}
