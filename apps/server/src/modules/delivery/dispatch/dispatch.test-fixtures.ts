import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ErrorClass, ProviderKind } from '@herald/contract';
import type { TestApp } from '../../../../test/harness.js';
import type { Tx } from '../../../db/database.js';
import { createCampaign, NORMAL } from '../../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../../campaigns/campaigns.test-fixtures.js';
import { startDispatch } from './dispatch-control.service.js';
import { shardSums, summedCounts } from '../../campaigns/index.js';
import { presenceOf } from '../delivery-tasks.js';
import { DEFAULT_DISPATCH_OPTIONS, type DispatchDeps, type DispatchOptions } from './dispatcher.js';
import {
  ProviderSendError,
  type OutboundMessage,
  type ProviderAdapter,
  type ProviderError,
  type SendAccepted,
} from '../providers/provider.js';
import { SendLimiter } from './send-limiter.js';

/** Test-only helpers of the dispatcher tests. */

/** `count` distinct 10-digit numbers; `ending` replaces the last digits of the first ones. */
export function phones(count: number, start = 0): string[] {
  return Array.from({ length: count }, (_, i) => `98${String(start + i).padStart(8, '0')}`);
}

/** One send as the fake provider saw it. */
export interface SeenSend {
  to: string;
  reference: string;
  at: number;
}

/**
 * A provider adapter in the test's hands: `answer` decides each send (resolve = accepted,
 * throw `refuse(...)` = refused); errors are classified as the WhatsApp codes are.
 */
export class FakeAdapter implements ProviderAdapter {
  readonly name = 'simulator';
  readonly simulated = true;
  readonly sends: SeenSend[] = [];
  private n = 0;

  constructor(
    public answer: (m: OutboundMessage, nthForNumber: number) => Promise<void> = async () => {},
  ) {}

  async send(message: OutboundMessage): Promise<SendAccepted> {
    this.sends.push({ to: message.to, reference: message.reference, at: Date.now() });
    const nth = this.sends.filter((s) => s.to === message.to).length;
    await this.answer(message, nth);
    return { providerMessageId: `fake-${++this.n}` };
  }

  classifyError(error: ProviderError): ErrorClass {
    if (error.code === '130429' || error.code === '429') return 'throttled';
    if (error.code === '131056') return 'recipient_throttled';
    if (/^5\d\d$/.test(error.code)) return 'retryable';
    return 'permanent';
  }

  verifyCallback(): boolean {
    return false;
  }

  parseStatusCallback(): never[] {
    return [];
  }

  sentTo(phone: string): number {
    return this.sends.filter((s) => s.to === phone).length;
  }
}

export const refuse = (code: string, text = 'refused', retryAfterSeconds?: number) =>
  new ProviderSendError({ code, text, retryAfterSeconds });

export function depsFor(
  t: TestApp,
  adapter: ProviderAdapter,
  options: Partial<DispatchOptions> = {},
): DispatchDeps {
  return {
    db: t.db,
    delivery: { senderAdapter: () => adapter },
    limiter: new SendLimiter(16),
    presence: presenceOf(t.app.ctx),
    log: t.app.ctx.log,
    options: {
      ...DEFAULT_DISPATCH_OPTIONS,
      maxAttempts: 3,
      backoffBaseMs: 50,
      backoffMaxMs: 200,
      sliceMs: 1_000,
      ...options,
    },
  };
}

/**
 * A campaign of `to` numbers by a new funded user, started by the engine (Processing,
 * running, default sender) with its lane jobs removed: the test runs the slices itself.
 */
export async function startedCampaign(
  t: TestApp,
  admin: string,
  to: string[],
  opts: { quietHours?: boolean; owner?: { email: string; token: string } } = {},
): Promise<string> {
  let owner = opts.owner;
  if (!owner) {
    const u = await t.createUser(admin, { role: 'User' });
    owner = { email: u.user.email, token: u.token };
  }
  const { token } = owner;
  await fund(t, admin, owner.email, NORMAL, to.length);
  const id = await createCampaign(t, token, to);
  const deps = { ...t.app.ctx, quietHours: opts.quietHours ?? false };
  const started = await t.db.transaction().execute((tx) => startDispatch(deps, tx, id));
  if (!started) throw new Error('the campaign did not start');
  await removeDispatchJobs(t, id);
  return id;
}

export async function removeDispatchJobs(t: TestApp, id: string): Promise<void> {
  await sql`SELECT graphile_worker.remove_job(key) FROM graphile_worker.jobs
            WHERE key LIKE ${`delivery-dispatch:${id}:%`}`.execute(t.db);
}

/** The default sender's rate and daily limit, with a fresh bucket and no usage. */
export async function setSender(t: TestApp, rate: number, dailyLimit: number | null = null) {
  const s = await t.db
    .updateTable('senders')
    .set({
      rate_per_second: rate,
      daily_limit: dailyLimit,
      bucket_tokens: rate,
      bucket_at: new Date(),
      throttled_until: null,
    })
    .where('is_default', '=', true)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.deleteFrom('sender_daily_usage').execute();
  return s.id;
}

export async function recipientsOf(t: TestApp, id: string) {
  return t.db
    .selectFrom('campaign_recipients')
    .select(['phone', 'state', 'attempts', 'error_code', 'next_attempt_at', 'provider_message_id'])
    .where('campaign_id', '=', id)
    .orderBy('phone')
    .execute();
}

export async function campaignOf(t: TestApp, id: string) {
  return t.db
    .selectFrom('campaigns')
    .leftJoinLateral(shardSums, (join) => join.onTrue())
    .select([
      'status',
      'dispatch_state',
      'dispatch_resume_at',
      ...summedCounts,
      'charged_count',
      'sender_id',
      'simulated',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Makes every queued retry of a campaign due now, instead of sleeping through backoff. */
export async function makeRetriesDue(t: TestApp, id: string): Promise<void> {
  await t.db
    .updateTable('campaign_recipients')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('campaign_id', '=', id)
    .where('state', '=', 'queued')
    .execute();
}

/**
 * What this transaction did to campaign_recipients so far, by its backend's statistics (other
 * tests' work is not counted): rows updated, of which HOT, and rows read by any scan.
 */
export async function recipientTableStats(
  tx: Tx,
): Promise<{ upd: number; hot: number; read: number }> {
  const { rows } = await sql<{ upd: number; hot: number; read: number }>`
    SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot,
           (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
      FROM pg_stat_xact_user_tables WHERE relname = 'campaign_recipients'`.execute(tx);
  return rows[0] ?? { upd: 0, hot: 0, read: 0 };
}

/**
 * A provider row of `kind` with nothing in it, for a test that registers its own adapter
 * under the row's key (its id): `register` wins over the row.
 */
export async function insertProviderRow(t: TestApp, kind: ProviderKind): Promise<string> {
  const id = randomUUID();
  await t.db
    .insertInto('providers')
    .values({ id, name: `${kind} ${id}`, kind })
    .execute();
  return id;
}
