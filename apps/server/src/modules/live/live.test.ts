import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_STREAMS_PER_USER, server as msg, type LiveEvent } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { creditBody } from '../credits/credits.test-fixtures.js';
import { fund, postCampaign } from '../campaigns/campaigns.test-fixtures.js';
import { publishCampaignProgress } from './campaign-progress.js';
import { LiveHub, type LiveClient } from './live-hub.js';

/**
 * GET /api/live on a listening server (a stream never ends, so `inject` cannot read it), with
 * the writes made through a SECOND instance on the same database: the event must cross over
 * PostgreSQL's LISTEN/NOTIFY, as it does between instances behind a load balancer.
 */

let t: TestApp;
let h: Hierarchy;
let second: FastifyInstance;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  second = await t.secondInstance();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

interface Stream {
  /** The next `alert` event, or 'closed' when the server ended the stream; throws after `ms`. */
  next(ms?: number): Promise<LiveEvent | 'closed'>;
  cancel(): Promise<void>;
}

async function open(token: string): Promise<Stream> {
  const res = await fetch(`${base}/api/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const frames: string[] = [];
  let ended = false;
  const pull = async () => {
    const { value, done } = await reader.read();
    if (done) ended = true;
    else buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      frames.push(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
    }
  };
  return {
    async next(ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const frame = frames.shift();
        if (frame?.startsWith('event: alert\n')) {
          return JSON.parse(frame.split('\ndata: ')[1]!) as LiveEvent;
        }
        if (frame !== undefined) continue;
        if (ended) return 'closed';
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          pull(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no event in time')), left);
          }),
        ]).finally(() => clearTimeout(timer));
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

describe('GET /api/live', () => {
  it("closes the user's oldest stream when it opens more than its bound", async () => {
    const streams: Stream[] = [];
    for (let i = 0; i <= LIVE_STREAMS_PER_USER; i++) streams.push(await open(h.r1.token));
    expect(await streams[0]!.next()).toBe('closed');
    for (const s of streams) await s.cancel();
  });

  it('needs a token and an event-stream Accept header', async () => {
    const anon = await fetch(`${base}/api/live`, { headers: { accept: 'text/event-stream' } });
    expect(anon.status).toBe(401);
    await anon.text();
    const plain = await t.request({ method: 'GET', url: '/api/live', token: h.u1.token });
    expect(plain.statusCode).toBe(406);
    expect(plain.json()).toEqual({ message: msg.liveNeedsEventStream });
  });

  it("delivers a notification written by a second instance to the user's stream only", async () => {
    const u1 = await open(h.u1.token);
    const u2 = await open(h.u2.token);
    const res = await second.inject({
      method: 'POST',
      url: '/api/credits',
      headers: { authorization: `Bearer ${h.admin}` },
      payload: creditBody(h.u1.user.email),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await u1.next()).toEqual({ kind: 'notifications' });
    // U2 heard nothing of it: its next event is its own.
    await second.inject({
      method: 'POST',
      url: '/api/credits',
      headers: { authorization: `Bearer ${h.admin}` },
      payload: creditBody(h.u2.user.email),
    });
    expect(await u2.next()).toEqual({ kind: 'notifications' });
    await u1.cancel();
    await u2.cancel();
  });

  it('delivers an announcement to its audience only', async () => {
    const u1 = await open(h.u1.token);
    const r1 = await open(h.r1.token);
    const post = (fields: Record<string, string>) => {
      const body = multipart({ title: 'Hello', message: 'News', ...fields });
      return second.inject({
        method: 'POST',
        url: '/api/announcements',
        headers: { authorization: `Bearer ${h.admin}`, ...body.headers },
        payload: body.payload,
      });
    };
    expect(
      (await post({ visibilityType: 'specific', visibilityTargets: h.u1.user.email })).statusCode,
    ).toBe(201);
    expect(await u1.next()).toEqual({ kind: 'announcements' });
    expect((await post({ visibilityType: 'reseller' })).statusCode).toBe(201);
    // R1's first event is the reseller one (it was not told of U1's).
    expect(await r1.next()).toEqual({ kind: 'announcements' });
    await expect(u1.next(400)).rejects.toThrow('no event in time');
    await u1.cancel();
    await r1.cancel();
  });

  it("tells a campaign's owner, the users above it and every Admin that its delivery moved", async () => {
    await fund(t, h.admin, h.u1.user.email, 'Normal Message - domestic', 5);
    const created = await postCampaign(t, h.u1.token, {
      creditType: 'Normal Message - domestic',
      message: 'Live progress',
      to: '9876543210',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ campaign: { _id: string } }>().campaign._id;
    const told = await Promise.all([h.u1.token, h.s1.token, h.r1.token, h.admin].map(open));
    const untold = await Promise.all([h.u2.token, h.r2.token].map(open));
    // Published by the second instance, as the dispatcher or a webhook batch would.
    await publishCampaignProgress(second.ctx.db, [id]);
    for (const s of told) expect(await s.next()).toEqual({ kind: 'campaigns' });
    for (const s of untold) await expect(s.next(400)).rejects.toThrow('no event in time');
    await Promise.all([...told, ...untold].map((s) => s.cancel()));
  });

  it('ends the stream when the user is blocked (on another instance)', async () => {
    const u3 = await open(h.u3.token);
    const profile = await t.request({
      method: 'GET',
      url: `/api/users/profile/${h.u3.user.id}`,
      token: h.admin,
    });
    const body = multipart({ ...formOf(profile.json().user), status: 'Blocked' });
    const res = await second.inject({
      method: 'PUT',
      url: `/api/users/update/${h.u3.user.id}`,
      headers: { authorization: `Bearer ${h.admin}`, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await u3.next()).toBe('closed');
    const again = await fetch(`${base}/api/live`, {
      headers: { authorization: `Bearer ${h.u3.token}`, accept: 'text/event-stream' },
    });
    expect(again.status).toBe(401);
    await again.text();
  });
});

describe('LiveHub', () => {
  const frames: string[] = [];

  it('sends a campaigns event to the named users and to every Admin, once each', async () => {
    const hub = new LiveHub(t.db, t.app.ctx.databaseUrl, () => {});
    const got: Record<string, string[]> = {};
    const client = (userId: string, role: LiveClient['role']): LiveClient => ({
      userId,
      role,
      tokenVersion: 0,
      write: (f) => ((got[userId] ??= []).push(f), true),
      close: () => {},
    });
    hub.add(client('owner', 'User'));
    hub.add(client('boss', 'Reseller'));
    hub.add(client('someone-else', 'User'));
    hub.add(client('any-admin', 'Admin'));
    await hub.ready();
    await sql`SELECT pg_notify('herald_live', 'c:owner,boss')`.execute(t.db);
    const frame = 'event: alert\ndata: {"kind":"campaigns"}\n\n';
    await expect.poll(() => got['any-admin'], { timeout: 3000 }).toEqual([frame]);
    expect(got.owner).toEqual([frame]);
    expect(got.boss).toEqual([frame]);
    expect(got['someone-else']).toBeUndefined();
    await hub.stop();
  });

  const fake = (write: (f: string) => boolean, closed: () => void): LiveClient => ({
    userId: 'u',
    role: 'User',
    tokenVersion: 0,
    write,
    close: closed,
  });

  it('sends a heartbeat comment to each stream and drops one that stopped reading', async () => {
    const hub = new LiveHub(t.db, t.app.ctx.databaseUrl, () => {}, 20);
    let stalledClosed = false;
    hub.add(
      fake(
        (f) => (frames.push(f), true),
        () => {},
      ),
    );
    hub.add(
      fake(
        () => false,
        () => (stalledClosed = true),
      ),
    );
    await new Promise((r) => setTimeout(r, 80));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((f) => f === ': keep-alive\n\n')).toBe(true);
    expect(stalledClosed).toBe(true);
    expect(hub.size).toBe(1);
    await hub.stop();
    expect(hub.size).toBe(0);
  });
});
