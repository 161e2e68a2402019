import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderFake, postCallback, type FakeAnswer, type SeenRequest } from './fake-http.js';

/**
 * A stand-in for Jasmin's HTTP API (tests only), written from its "HTTP API" documentation:
 * `POST /send` form-encoded, answered `Success "<uuid>"` (200) or `Error "<reason>"` with the
 * documented status (400 a bad request, 403 authentication, charging or throughput, 412 no
 * route, 500 otherwise). It records each send's fields, and throws DLRs and MO messages at a URL
 * as Jasmin's DLRThrower does: form-encoded POSTs, resent (up to `max_retries`, 3 by default)
 * until answered 200 with exactly `ACK/Jasmin`.
 */

export interface JasminFakeOptions {
  username: string;
  password: string;
}

export interface JasminRefusal {
  status: number;
  message: string;
}

export class JasminFake extends ProviderFake {
  /** Accepted sends' fields, with the id each got. */
  readonly sends: { fields: Record<string, string>; id: string }[] = [];
  refuse: (fields: Record<string, string>) => JasminRefusal | null = () => null;

  private constructor(private readonly o: JasminFakeOptions) {
    super();
  }

  static start(o: JasminFakeOptions): Promise<JasminFake> {
    return new JasminFake(o).listen();
  }

  protected handle(req: SeenRequest): FakeAnswer {
    if (req.method !== 'POST' || req.url !== '/send') return error(404, 'Not found');
    const fields = Object.fromEntries(new URLSearchParams(req.body.toString('utf8')));
    if (!fields.username || !fields.password || !fields.to) {
      return error(
        400,
        'Mandatory arguments not found, please refer to the HTTPAPI specifications.',
      );
    }
    if (fields.content === undefined && fields['hex-content'] === undefined) {
      return error(400, 'Mandatory argument content is not found.');
    }
    if (fields.username !== this.o.username || fields.password !== this.o.password) {
      return error(403, `Authentication failure for username:${fields.username}`);
    }
    if (fields.dlr === 'yes' && !fields['dlr-url']) {
      return error(400, 'Mandatory argument dlr-url is not found.');
    }
    const refusal = this.refuse(fields);
    if (refusal) return error(refusal.status, refusal.message);
    const id = randomUUID();
    this.sends.push({ fields, id });
    return { status: 200, body: `Success "${id}"` };
  }

  /**
   * Throws one DLR (or MO) at `url` as the DLRThrower does; answers how many throws it took and
   * whether the last was acknowledged.
   */
  async throwAt(
    url: string,
    fields: Record<string, string>,
    opts: { maxRetries?: number; retryDelayMs?: number } = {},
  ): Promise<{ throws: number; acked: boolean; last: { status: number; text: string } }> {
    const tries = 1 + (opts.maxRetries ?? 3);
    let last = { status: 0, text: '' };
    for (let i = 1; i <= tries; i++) {
      const res = await postCallback(url, new URLSearchParams(fields).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
      last = { status: res.status, text: res.text };
      if (res.status === 200 && res.text === 'ACK/Jasmin') return { throws: i, acked: true, last };
      if (i < tries) await sleep(opts.retryDelayMs ?? 10);
    }
    return { throws: tries, acked: false, last };
  }
}

function error(status: number, message: string): FakeAnswer {
  return { status, body: `Error "${message}"` };
}
